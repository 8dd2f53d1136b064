/**
 * A host name as the service normalizes it (scheme, user info, `www.`, port, path and trailing dot dropped, lower-cased,
 * international names in punycode, as WHATWG URL parsing gives them): what a bound answer's `domain` is compared with.
 */
export function normalizeDomain(input: string): string {
  let value = input.trim();
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) value = `http://${value.replace(/^\/\//, '')}`;
  let host: string;
  try {
    host = new URL(value).hostname;
  } catch {
    host = input.trim();
  }
  return host.toLowerCase().replace(/\.+$/, '').replace(/^www\./, '');
}
