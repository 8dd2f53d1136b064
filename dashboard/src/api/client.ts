import createClient from 'openapi-fetch';
import { ApiError, type FieldDetail } from './errors';
import type { paths } from './schema.gen';

/**
 * The management API, typed from the service's OpenAPI document (`npm run api-types` generates `schema.gen.ts`).
 * Same-origin: the browser sends the session cookie and an `Origin` header by itself, which is all the CSRF rule asks.
 */
export const api = createClient<paths>({ baseUrl: window.location.origin });

type Answer<T> = { data?: T; error?: unknown; response: Response };

/** The answer's body, or an `ApiError` carrying the service's own message and field details. */
export async function unwrap<T>(request: Promise<Answer<T>>): Promise<T> {
  let answer: Answer<T>;
  try {
    answer = await request;
  } catch {
    throw new ApiError(0, 'The service could not be reached. Check your connection and try again.');
  }
  const { data, error, response } = answer;
  if (response.ok) return data as T;
  const body = (typeof error === 'object' && error) as { error?: unknown; details?: FieldDetail[] } | false;
  const message = body && typeof body.error === 'string' ? body.error : `${response.status} ${response.statusText || 'Request failed'}`;
  throw new ApiError(response.status, message, body && Array.isArray(body.details) ? body.details : []);
}
