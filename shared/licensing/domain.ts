import { BadRequestError } from '../errors.js';

/** Longest input accepted as a domain: a full URL may carry a long path that is then dropped. */
export const MAX_DOMAIN_INPUT_LENGTH = 2048;

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
  return host;
}
