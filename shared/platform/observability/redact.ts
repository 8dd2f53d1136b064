import { KEY_ALPHABET } from '../ids.js';

export const MASK = '****';

const KEY_CHAR = `[${KEY_ALPHABET}]`;

/**
 * Secrets as they can appear inside any text (an error message, a stack, a header value), each with
 * what is kept of it. Shapes, not field names: a key quoted in an ElectroDB or SDK message has no name.
 */
const SECRET_PATTERNS: [RegExp, string][] = [
  // A license key (shared/licensing/licenses/license-key.ts): its prefix and last group stay, enough to tell keys apart.
  // It must end its token, so a UUID's 4-4-4 run (a request id) is not taken for one. Any case: a caller may lowercase it.
  [new RegExp(`(?:${KEY_CHAR}{4}-){3}(${KEY_CHAR}{4})(?![\\w-])`, 'gi'), `${MASK}-${MASK}-${MASK}-$1`],
  // Secret API keys, ours (`sk_`) and Stripe's (`sk_live_…`, restricted `rk_…`); not `task_…` or `disk_…`.
  [/(?<![A-Za-z0-9])([sr]k_(?:live_|test_)?)[A-Za-z0-9]{8,}/g, `$1${MASK}`],
  // Webhook signing secrets (ours and Stripe's): `whsec_` and base64.
  [/whsec_[A-Za-z0-9+/=]+/g, `whsec_${MASK}`],
  // Credentials after their scheme, as in an Authorization header.
  [/\b(Bearer|Basic)\s+[^\s",;]+/gi, `$1 ${MASK}`],
  // Values of secret-named fields inside JSON text (a body quoted in a message): `"password":"…"`.
  [/"([\w-]*(?:password|secret|token|signature|session|authorization|cookie))"(\s*:\s*)"(?:[^"\\]|\\.)*"/gi, `"$1"$2"${MASK}"`],
  // Cookie, query and header syntax: `session=…`, `password=…`, `Stripe-Signature: t=…,v1=…`.
  [/\b([\w-]*(?:password|secret|token|session))=[^;&\s"]+/gi, `$1=${MASK}`],
  [/\b(stripe-signature|webhook-signature|authorization|cookie|x-origin-verify)(\s*:\s*)[^\r\n"]+/gi, `$1$2${MASK}`],
  // A bare session token: 32 lowercase base32 characters on their own (a `pk_` public key has its prefix).
  [/(?<![\w-])[a-z2-7]{32}(?![\w-])/g, MASK],
];

/** Every secret found in `text` masked; the rest left as it was. Pure: it runs on each string of a log record. */
export function redact(text: string): string {
  let result = text;
  for (const [pattern, replacement] of SECRET_PATTERNS) result = result.replace(pattern, replacement);
  return result;
}

/** Fields whose whole value is secret, whatever its shape: credentials, cookies, signatures. */
const SECRET_FIELD = /password|secret|token|signature|session|authorization|cookie|x-origin-verify/i;

/**
 * The log record hook (Logger's JSON replacer): called for every field of every record, nested ones
 * and error causes included. A secret-named field is masked whole; any other string is searched.
 */
export function redactLogField(key: string, value: unknown): unknown {
  if (value === undefined || value === null) return value;
  if (key && SECRET_FIELD.test(key)) return MASK;
  return typeof value === 'string' ? redact(value) : value;
}
