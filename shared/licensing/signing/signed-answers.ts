import { AppError, BadRequestError, type Clock } from '../../platform/index.js';
import { errorAnswer, header, type HttpEvent, type HttpResult, type Route } from '../../platform/http/index.js';
import { NONCE_HEADER, NONCE_PATTERN } from './http-signatures.js';
import type { ResponseSigner } from './response-signer.js';
import type { SigningIdentity } from '../../catalog/index.js';

/** What a signed route learns while it runs: the product it answers for, once it knows it. */
export type AnswerScope = { product?: SigningIdentity };

export const NONCE_MESSAGE = 'Signature-Nonce must be 1 to 128 letters, digits or - _ . ~ + / =';

/** The client's nonce (`Signature-Nonce`), echoed as the signature's `nonce` parameter; absent: none. */
export function signatureNonce(event: HttpEvent): string | undefined {
  const nonce = header(event, NONCE_HEADER);
  if (nonce === undefined) return undefined;
  if (!NONCE_PATTERN.test(nonce)) throw new BadRequestError(NONCE_MESSAGE);
  return nonce;
}

type Options = {
  /** How a refusal (a 4xx) is answered; default `{error}`, as the error handler would. */
  refusal?: (error: AppError) => HttpResult;
  /** Told of every refusal (metrics). */
  onRefusal?: (error: AppError) => void;
  /**
   * Binds every signed answer to its request (DECISIONS §13): the fields it returns are added to the answer's JSON
   * body, and the signature covers the request's method and path.
   */
  bind?: (event: HttpEvent) => Record<string, string>;
};

/**
 * The answer with `fields` added at the top level of its JSON object body (JSON.stringify's, as `json()` writes it).
 * A body that names none of the fields anywhere gets them before its closing brace: the very text that parsing it,
 * spreading the fields in and serializing it again would give, without the second pass over the JSON.
 */
export function withFields(answer: HttpResult, fields: Record<string, string>): HttpResult {
  const body = answer.body ?? '{}';
  const added = JSON.stringify(fields);
  if (added === '{}' || Object.keys(fields).some((name) => body.includes(JSON.stringify(name)))) {
    return { ...answer, body: JSON.stringify({ ...(JSON.parse(body) as object), ...fields }) };
  }
  return { ...answer, body: body === '{}' ? added : `${body.slice(0, -1)},${added.slice(1)}` };
}

/**
 * A route whose answers are signed with the key of the product it answers for (docs/api.md, Signed answers).
 * The handler sets `scope.product` as soon as it knows the product; every answer from then on, refusals
 * included, is signed. Answers given before (bad input, an unknown key on `/v1`) are not: no product, no key.
 * Refusals are shaped here rather than by the error handler, so that they can be signed; a 5xx is left to it
 * (unsigned: the client retries). With `bind`, each signed answer names what it answers and covers the request.
 */
export function signedAnswers(
  signer: ResponseSigner,
  clock: Clock,
  handler: (event: HttpEvent, scope: AnswerScope) => Promise<HttpResult>,
  options: Options = {},
): Route['handler'] {
  const refusal = options.refusal ?? errorAnswer;
  return async (event) => {
    const scope: AnswerScope = {};
    let nonce: string | undefined;
    let answer: HttpResult;
    try {
      nonce = signatureNonce(event);
      answer = await handler(event, scope);
    } catch (error) {
      if (!(error instanceof AppError) || error.statusCode >= 500) throw error;
      options.onRefusal?.(error);
      answer = refusal(error);
    }
    if (!scope.product) return answer;
    if (!options.bind) return signer.sign(answer, scope.product, { now: clock.now(), nonce });
    const request = { method: event.requestContext.http.method, path: event.rawPath };
    return signer.sign(withFields(answer, options.bind(event)), scope.product, { now: clock.now(), nonce, request });
  };
}
