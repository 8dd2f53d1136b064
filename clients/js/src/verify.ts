/**
 * The hook for checking answers: the client calls a `ResponseVerifier` with each answer's raw bytes before parsing
 * them. The built-in one (`signing` option, signed-answers.ts) checks the service's signatures; supply your own
 * `verifier` for anything else.
 */

/** What a response verifier sees: the request as sent and the response exactly as received. */
export interface VerifiableResponse {
  request: {
    method: string;
    /** The full URL that was requested. */
    url: string;
    /** The route's path (`/public/v1/licenses/validate`), as the service receives it: no base-URL prefix, no query. */
    path: string;
    /** The headers the client sent (lower-case names), `signature-nonce` among them on signed routes. */
    headers: Record<string, string>;
    /** The body the client sent, if any. */
    body: string | undefined;
  };
  /** Whether the service signs this route's answers (validate, activate, deactivate, check, offline files, update check). */
  signed: boolean;
  status: number;
  headers: Headers;
  /** The raw body, before any parsing. */
  body: Uint8Array<ArrayBuffer>;
}

/**
 * Checks a response before the client parses it: throw `SignatureError` (or return a rejected promise) to refuse it.
 * A refused response is never retried and never falls back to the validation cache.
 */
export interface ResponseVerifier {
  verify(response: VerifiableResponse): void | Promise<void>;
}
