import { type Deps, UnauthorizedError } from '../../platform/index.js';
import { header, type HttpEvent } from '../../platform/http/index.js';
import { resolveApiKey, type KeyOwner } from './api-keys.js';

/** DECISIONS §3: the answers to a bearer credential that is not a usable secret key. */
export const API_KEY_MESSAGES = {
  secretKeyRequired: 'A secret API key (sk_) is required',
  invalid: 'Invalid API key',
  missing: 'Authentication required',
} as const;

/**
 * The owner of the `Authorization: Bearer sk_…` key of a request, or undefined when the request has no
 * `Authorization` header (the management API then looks for a session; the portal refuses). Any other
 * scheme or key kind (a product's `pk_`) is 401, as is a key that is unknown or revoked.
 */
export async function bearerKeyOwner(deps: Pick<Deps, 'data' | 'clock'>, event: HttpEvent): Promise<KeyOwner | undefined> {
  const authorization = header(event, 'authorization');
  if (authorization === undefined) return undefined;
  const [scheme, key] = authorization.split(/\s+/, 2);
  if (scheme?.toLowerCase() !== 'bearer' || !key?.startsWith('sk_')) throw new UnauthorizedError(API_KEY_MESSAGES.secretKeyRequired);
  const owner = await resolveApiKey(deps, key);
  if (!owner) throw new UnauthorizedError(API_KEY_MESSAGES.invalid);
  return owner;
}
