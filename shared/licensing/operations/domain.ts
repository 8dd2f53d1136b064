import { BadRequestError } from '../../platform/index.js';

/** Longest input accepted as a domain: a full URL may carry a long path that is then dropped. */
export const MAX_DOMAIN_INPUT_LENGTH = 2048;

/** DNS limits (RFC 1035) on the ASCII form; they also keep the domain within a DynamoDB key. */
export const MAX_HOSTNAME_LENGTH = 253;
export const MAX_LABEL_LENGTH = 63;

/**
 * The host a license is activated on (DECISIONS §4): scheme, user info, `www.`, port, path, query and
 * trailing dot dropped, lower-cased, international names in their ASCII (punycode) form, so that
 * `https://WWW.Example.com:8080/x` and `example.com` are the same activation.
 */
export function normalizeDomain(input: string, field = 'domain'): string {
  const trimmed = input.trim();
  if (!trimmed) throw new BadRequestError(`${field} is required`);
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed) ? trimmed : `http://${trimmed.replace(/^\/\//, '')}`;
  let hostname: string;
  try {
    hostname = new URL(withScheme).hostname;
  } catch {
    throw new BadRequestError(`${field} is not a valid domain or URL`);
  }
  const host = hostname.toLowerCase().replace(/\.+$/, '').replace(/^www\./, '');
  if (!host) throw new BadRequestError(`${field} is not a valid domain or URL`);
  if (host.length > MAX_HOSTNAME_LENGTH) throw new BadRequestError(`${field} must be a host name of at most ${MAX_HOSTNAME_LENGTH} characters`);
  if (host.split('.').some((label) => label.length > MAX_LABEL_LENGTH)) {
    throw new BadRequestError(`${field} must not have a label longer than ${MAX_LABEL_LENGTH} characters`);
  }
  return host;
}
