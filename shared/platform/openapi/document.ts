import { toJSONSchema, type $ZodType } from 'zod/v4/core';
import { IDEMPOTENCY_HEADER, IDEMPOTENCY_MESSAGES, IN_PROGRESS_WAIT_MS, MAX_IDEMPOTENCY_KEY_LENGTH, REPLAYED_HEADER } from '../http/idempotency.js';
import type { Route } from '../http/route.js';
import { DEFAULT_PER_PAGE, MAX_PER_PAGE } from '../http/schemas.js';
import type { IdPrefix } from '../ids.js';
import { BoundError, BoundValidationRefusal, ErrorBody, ValidationRefusal } from './common.js';
import { exampleIdFor } from './examples.js';
import { SECURITY_SCHEMES, schemaDocs, type OperationDoc, type OperationDocs, type ResponseDoc, type Security } from './operation.js';

/**
 * Builds the OpenAPI 3.1 document from the routes each surface's app really serves and the operation docs kept
 * beside them. Request schemas are the routes' own zod schemas (`route.input`), converted with zod's JSON Schema
 * output (`io: 'input'`, what a caller may send); response schemas are the docs' zod schemas (`io: 'output'`).
 * Every route must have an operation and every operation a route: otherwise this throws, listing them all.
 */

type Json = Record<string, unknown>;
export type ErrorMessages = Partial<Record<number, string[]>>;

export type SurfaceDoc = {
  /** The tag of the surface's operations. */
  tag: { name: string; description: string };
  routes: Route[];
  operations: OperationDocs;
  /** Who may call a route of this surface, when its operation does not say. */
  security: (route: Route) => Security;
  /** Errors every route of the surface can answer (authentication, bad JSON, storage unavailable…), by status. */
  errors: (route: Route, security: Security) => ErrorMessages;
};

export type WebhookDoc = { type: string; description: string; envelope: $ZodType; example: unknown };

export type DocumentInput = {
  info: { title: string; version: string; description: string };
  surfaces: SurfaceDoc[];
  webhooks: { tag: { name: string; description: string }; rules: string; events: WebhookDoc[] };
};

const STATUS_TEXT: Record<number, string> = {
  200: 'OK',
  201: 'Created',
  202: 'Accepted',
  204: 'No Content',
  302: 'Found',
  303: 'See Other',
  400: 'Bad request: invalid input or a business rule',
  401: 'Missing or invalid credentials',
  403: 'Not allowed',
  404: 'Unknown, or not yours',
  409: 'Conflict',
  413: 'Body too large',
  415: 'Wrong content type',
  422: 'Unprocessable: the request cannot be what it says it is',
  429: 'Rate limited: retry after `Retry-After` seconds',
  502: 'The payment provider failed or could not be reached',
  503: 'Storage throttled or unavailable, or the request ran out of time for its calls: retry after `Retry-After` seconds',
};

/** Query parameters whose meaning is the same on every list route. */
const QUERY_DESCRIPTIONS: Record<string, string> = {
  page: 'Page number, from 1 (default 1); below 1 is 400.',
  per_page: `Items per page, from 1 (default ${DEFAULT_PER_PAGE}); above ${MAX_PER_PAGE} reads as ${MAX_PER_PAGE}.`,
};

const RETRY_AFTER = { 'Retry-After': { description: 'Whole seconds to wait before retrying', required: true, schema: { type: 'integer', minimum: 1 } } };

/** The header parameter, answer header and errors of every route that takes `Idempotency-Key` (`route.input.idempotent`). */
const IDEMPOTENCY_PARAMETER = {
  name: IDEMPOTENCY_HEADER,
  in: 'header',
  required: false,
  description:
    `Makes a retry safe: a request with the same key and the same method, path, query and body, by the same caller (the account on ` +
    '`/api`, the license key on the license operations), gets the first answer back (status, headers, body; `' + REPLAYED_HEADER + ': true`) ' +
    'instead of acting again, for 24 hours. The same key with another request is 422; while the first is still running a retry waits ' +
    `for its answer, and is 409 if none comes within ${IN_PROGRESS_WAIT_MS / 1000} s. Only successes (below 400) are kept: after a failure a retry runs again. ` +
    'Without the header the route behaves as usual. Use a fresh random value (a UUID) per operation.',
  schema: { type: 'string', minLength: 1, maxLength: MAX_IDEMPOTENCY_KEY_LENGTH, pattern: '^[ -~]+$' },
  example: '5f0c6a7e-3b1d-4a8e-9c2f-1d4e6b8a0c3f',
};
const IDEMPOTENCY_ERRORS = { 400: [IDEMPOTENCY_MESSAGES.invalidKey], 409: [IDEMPOTENCY_MESSAGES.inProgress], 422: [IDEMPOTENCY_MESSAGES.mismatch] };
const REPLAYED = { description: '`true` when this is the recorded answer of an earlier request with the same `Idempotency-Key`.' };

/** Converts zod schemas, moving named ones (`named`) to `components.schemas` and pointing at them. */
class SchemaConverter {
  readonly components: Record<string, Json> = {};

  convert(schema: $ZodType, io: 'input' | 'output'): Json {
    const json = toJSONSchema(schema, {
      io,
      target: 'draft-2020-12',
      metadata: schemaDocs,
      unrepresentable: 'any',
      // zod writes `additionalProperties: false` for objects it strips or refuses extra keys of: true of what
      // the service answers, and of `/api` bodies (strict). Edge and public bodies ignore extras: `z.object`
      // input has no such line.
    }) as Json;
    const defs = (json.$defs ?? {}) as Record<string, Json>;
    delete json.$defs;
    delete json.$schema;
    for (const [id, def] of Object.entries(defs)) this.addComponent(id, rewriteRefs(def) as Json);
    // A named root comes back as `{$ref}` to its own definition, now a component.
    return rewriteRefs(json) as Json;
  }

  private addComponent(id: string, schema: Json): void {
    const existing = this.components[id];
    if (existing && JSON.stringify(existing) !== JSON.stringify(schema)) throw new Error(`Two different schemas are named ${id}`);
    this.components[id] = schema;
  }
}

function rewriteRefs(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(rewriteRefs);
  if (!value || typeof value !== 'object') return value;
  const out: Json = {};
  for (const [key, inner] of Object.entries(value)) {
    if (key === 'id' && typeof inner === 'string' && 'type' in value) continue; // zod copies a def's id into it
    out[key] = key === '$ref' && typeof inner === 'string' ? inner.replace(/^#\/\$defs\//, '#/components/schemas/') : rewriteRefs(inner);
  }
  return out;
}

/** `GET /api/products/{id}` → `getApiProductsById`. */
export function operationIdOf(method: string, path: string): string {
  const words = path
    .split('/')
    .filter(Boolean)
    .flatMap((segment) => {
      const param = /^\{(.+)\}$/.exec(segment);
      return param ? ['by', param[1]!] : segment.split(/[^A-Za-z0-9]+/);
    })
    .filter(Boolean);
  return method.toLowerCase() + words.map((word) => word[0]!.toUpperCase() + word.slice(1)).join('');
}

const pathParams = (path: string) => [...path.matchAll(/\{([^}+]+)\}/g)].map((match) => match[1]!);

const exampleKey = (message: string, taken: Set<string>) => {
  const base = message.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '').slice(0, 60) || 'error';
  let key = base;
  for (let n = 2; taken.has(key); n++) key = `${base}-${n}`;
  taken.add(key);
  return key;
};

function mergeErrors(...sources: (ErrorMessages | undefined)[]): Map<number, string[]> {
  const merged = new Map<number, string[]>();
  for (const source of sources) {
    for (const [status, messages] of Object.entries(source ?? {})) {
      const list = merged.get(Number(status)) ?? [];
      for (const message of messages ?? []) if (!list.includes(message)) list.push(message);
      merged.set(Number(status), list);
    }
  }
  return new Map([...merged].sort(([a], [b]) => a - b));
}

const securityOf = (security: Security) => security.map((alternative) => Object.fromEntries(alternative.map((name) => [name, []])));

export function buildDocument(input: DocumentInput): Json {
  const schemas = new SchemaConverter();
  const problems: string[] = [];
  const paths: Record<string, Record<string, Json>> = {};

  for (const surface of input.surfaces) {
    const keys = new Set(surface.routes.map((route) => `${route.method} ${route.path}`));
    for (const key of Object.keys(surface.operations)) {
      if (!keys.has(key)) problems.push(`${key}: documented under ${surface.tag.name}, but no such route`);
    }
    for (const route of surface.routes) {
      const key = `${route.method} ${route.path}` as const;
      const doc = surface.operations[key];
      if (!doc) {
        problems.push(`${key}: a route of ${surface.tag.name} without an operation (add it to the *.openapi.ts beside the route)`);
        continue;
      }
      try {
        (paths[route.path] ??= {})[route.method.toLowerCase()] = operationOf(route, doc, surface, schemas);
      } catch (error) {
        problems.push(`${key}: ${(error as Error).message}`);
      }
    }
  }

  const webhooks: Record<string, Json> = {};
  for (const event of input.webhooks.events) {
    webhooks[event.type] = {
      post: {
        summary: event.type,
        description: event.description,
        operationId: operationIdOf('webhook', event.type.replace('.', '/')),
        tags: [input.webhooks.tag.name],
        parameters: [
          { name: 'webhook-id', in: 'header', required: true, description: 'The event id (`evt_…`): the same on every attempt and redelivery; de-duplicate on it.', schema: { type: 'string' }, example: event.example && (event.example as Json).id },
          { name: 'webhook-timestamp', in: 'header', required: true, description: 'Unix seconds of this attempt; refuse old ones.', schema: { type: 'string', pattern: '^[0-9]+$' }, example: '1768473000' },
          { name: 'webhook-signature', in: 'header', required: true, description: '`v1,` and base64 of HMAC-SHA256(secret, `{webhook-id}.{webhook-timestamp}.{body}`).', schema: { type: 'string', pattern: '^v1,' }, example: 'v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=' },
        ],
        requestBody: {
          required: true,
          content: { 'application/json': { schema: schemas.convert(event.envelope, 'output'), examples: { [event.type]: { value: event.example } } } },
        },
        responses: {
          '2XX': { description: 'Received: the delivery succeeds.' },
          '410': { description: 'Gone: the delivery fails without retries and the webhook is disabled.' },
          default: { description: 'Any other answer, a redirect or none within 10 s: retried on the schedule above.' },
        },
      },
    };
  }

  if (problems.length) throw new Error(`The OpenAPI document does not match the routes:\n- ${problems.join('\n- ')}`);
  const responses = shareRepeatedErrors(paths);

  return {
    openapi: '3.1.0',
    info: input.info,
    servers: [{ url: '/', description: 'The service that serves this document' }],
    tags: [...input.surfaces.map((surface) => surface.tag), { ...input.webhooks.tag, description: `${input.webhooks.tag.description}\n\n${input.webhooks.rules}` }],
    paths,
    webhooks,
    components: {
      schemas: Object.fromEntries(Object.entries(schemas.components).sort(([a], [b]) => a.localeCompare(b))),
      responses,
      securitySchemes: SECURITY_SCHEMES,
    },
  };
}

function operationOf(route: Route, doc: OperationDoc, surface: SurfaceDoc, schemas: SchemaConverter): Json {
  const security = doc.security ?? surface.security(route);
  const viaPublicKeyQuery = security.some((alternative) => alternative.includes('publicKey'));
  const parameters: Json[] = [];

  for (const name of pathParams(route.path)) {
    const override = doc.pathParameters?.[name];
    const kind = route.input?.pathIds?.[name];
    if (override) {
      parameters.push({ name, in: 'path', required: true, description: override.description, schema: schemas.convert(override.schema, 'input'), example: override.example });
    } else if (kind) {
      parameters.push({
        name,
        in: 'path',
        required: true,
        description: `A \`${kind.prefix}_…\` id; one of another shape is answered as an unknown one (${kind.unknown().statusCode} \`${kind.unknown().message}\`).`,
        schema: { type: 'string', pattern: `^${kind.prefix}_[a-z2-7]{24}$` },
        example: exampleIdFor(kind.prefix as IdPrefix),
      });
    } else {
      throw new Error(`{${name}} has neither an id kind (route.input.pathIds) nor pathParameters in its operation`);
    }
  }

  if (route.input?.query) {
    const query = schemas.convert(route.input.query, 'input');
    const properties = (query.properties ?? {}) as Record<string, Json>;
    const required = new Set((query.required ?? []) as string[]);
    for (const [name, schema] of Object.entries(properties)) {
      if (name === 'public_key' && viaPublicKeyQuery) continue; // the publicKey security scheme carries it
      const example = doc.queryExamples?.[name];
      const description = QUERY_DESCRIPTIONS[name];
      parameters.push({
        name,
        in: 'query',
        required: required.has(name),
        ...(description ? { description } : {}),
        schema,
        ...(example !== undefined ? { example } : {}),
      });
    }
  }
  for (const [name, header] of Object.entries(doc.headerParameters ?? {})) {
    parameters.push({
      name,
      in: 'header',
      required: false,
      description: header.description,
      schema: { type: 'string', ...(header.pattern ? { pattern: header.pattern } : {}) },
      example: header.example,
    });
  }
  for (const name of Object.keys(doc.queryExamples ?? {})) {
    if (!parameters.some((parameter) => parameter.in === 'query' && parameter.name === name)) throw new Error(`queryExamples names ${name}, which the route does not read`);
  }

  if (route.input?.idempotent) parameters.push(IDEMPOTENCY_PARAMETER);

  const bodySchema = doc.requestBody?.schema ?? route.input?.body;
  let requestBody: Json | undefined;
  if (bodySchema) {
    const contentType = doc.requestBody?.contentType ?? 'application/json';
    const examples = doc.requestBody?.examples;
    requestBody = {
      required: true,
      ...(doc.requestBody?.description ? { description: doc.requestBody.description } : {}),
      content: {
        [contentType]: {
          schema: schemas.convert(bodySchema, 'input'),
          ...(examples ? { examples: Object.fromEntries(Object.entries(examples).map(([name, value]) => [name, { value }])) } : {}),
        },
      },
    };
  } else if (doc.requestBody?.examples) {
    throw new Error('requestBody examples, but the route reads no body');
  }

  const responses: Record<string, Json> = {};
  for (const [status, response] of Object.entries(doc.responses)) {
    const replayable = route.input?.idempotent ? { ...response!, headers: { ...response!.headers, [REPLAYED_HEADER]: REPLAYED } } : response!;
    responses[status] = successResponse(Number(status), replayable, schemas);
  }

  const notFound = Object.values(route.input?.pathIds ?? {})
    .map((kind) => kind.unknown())
    .filter((error) => error.statusCode === 404)
    .map((error) => error.message);
  const rateLimited = doc.rateLimits?.length ? { 429: [...new Set(doc.rateLimits.map((limit) => limit.message))] } : undefined;
  const errors = mergeErrors(
    surface.errors(route, security),
    notFound.length ? { 404: notFound } : undefined,
    rateLimited,
    route.input?.idempotent ? IDEMPOTENCY_ERRORS : undefined,
    doc.errors,
  );
  const errorSchema = schemas.convert(errorBodyOf(doc), 'output');
  for (const [status, messages] of errors) {
    const taken = new Set<string>();
    responses[String(status)] = {
      description: `${STATUS_TEXT[status] ?? 'Error'}: ${messages.map((message) => `\`${message}\``).join(', ')}`,
      ...(status === 429 || status === 503 ? { headers: RETRY_AFTER } : {}),
      // The 409 of a request still in progress says when to retry; a route's other 409s do not.
      ...(status === 409 && messages.includes(IDEMPOTENCY_MESSAGES.inProgress)
        ? { headers: { 'Retry-After': { ...RETRY_AFTER['Retry-After'], required: messages.length === 1 } } }
        : {}),
      content: {
        'application/json': {
          schema: errorSchema,
          examples: Object.fromEntries(
            messages.map((message) => [exampleKey(message, taken), { summary: message, value: doc.errorBody === 'validation' ? { valid: false, error: message } : { error: message } }]),
          ),
        },
        ...(doc.errorPage ? { 'text/html': { schema: { type: 'string' }, example: `<!doctype html><html lang="en">…<p>${messages[0]}</p>…</html>` } } : {}),
      },
    };
  }

  return {
    tags: [surface.tag.name],
    summary: doc.summary,
    ...(doc.description ? { description: doc.description } : {}),
    operationId: operationIdOf(route.method, route.path),
    security: securityOf(security),
    ...(parameters.length ? { parameters } : {}),
    ...(requestBody ? { requestBody } : {}),
    responses,
    ...(doc.deprecated ? { deprecated: true } : {}),
  };
}

/**
 * An error answer that several operations give word for word (401 of every management route, 503…) becomes one
 * `components.responses` entry, named after its status and first message, that they point at.
 */
function shareRepeatedErrors(paths: Record<string, Record<string, Json>>): Record<string, Json> {
  const errorResponses = Object.values(paths)
    .flatMap((operations) => Object.values(operations))
    .flatMap((operation) => Object.entries(operation.responses as Record<string, Json>).filter(([status]) => Number(status) >= 400).map(([status, response]) => ({ operation, status, response })));
  const counts = new Map<string, number>();
  for (const { response } of errorResponses) counts.set(JSON.stringify(response), (counts.get(JSON.stringify(response)) ?? 0) + 1);
  const names = new Map<string, string>();
  const shared: Record<string, Json> = {};
  for (const { operation, status, response } of errorResponses) {
    const key = JSON.stringify(response);
    if ((counts.get(key) ?? 0) < 2) continue;
    let name = names.get(key);
    if (!name) {
      const examples = Object.values(((response.content as Json)['application/json'] as Json).examples as Record<string, { summary: string }>);
      const words = examples[0]!.summary.replace(/[^A-Za-z0-9 ]+/g, ' ').split(' ').filter(Boolean).slice(0, 4);
      const base = `E${status}${words.map((word) => word[0]!.toUpperCase() + word.slice(1)).join('')}${examples.length > 1 ? `And${examples.length - 1}More` : ''}`;
      name = base;
      for (let n = 2; name in shared; n++) name = `${base}${n}`;
      names.set(key, name);
      shared[name] = response;
    }
    (operation.responses as Json)[status] = { $ref: `#/components/responses/${name}` };
  }
  return Object.fromEntries(Object.entries(shared).sort(([a], [b]) => a.localeCompare(b)));
}

function errorBodyOf(doc: OperationDoc): $ZodType {
  if (doc.boundAnswers) return doc.errorBody === 'validation' ? BoundValidationRefusal : BoundError;
  return doc.errorBody === 'validation' ? ValidationRefusal : ErrorBody;
}

function successResponse(status: number, response: ResponseDoc, schemas: SchemaConverter): Json {
  const headers = response.headers
    ? Object.fromEntries(Object.entries(response.headers).map(([name, header]) => [name, { description: header.description, required: header.required ?? false, schema: { type: 'string' } }]))
    : undefined;
  const content: Json = {};
  if (response.body) {
    content['application/json'] = {
      schema: schemas.convert(response.body, 'output'),
      ...(response.examples ? { examples: Object.fromEntries(Object.entries(response.examples).map(([name, value]) => [name, { value }])) } : {}),
    };
  } else if (response.examples) {
    throw new Error(`${status}: examples without a body schema`);
  }
  if (response.html) content['text/html'] = { schema: { type: 'string' }, example: response.html };
  if (response.text) content[response.text.contentType] = { schema: { type: 'string' }, example: response.text.example };
  return {
    description: response.description,
    ...(headers ? { headers } : {}),
    ...(Object.keys(content).length ? { content } : {}),
  };
}
