/** A host name as the service normalizes it (scheme, `www.`, port, path and trailing dot dropped, lower-cased). */
export function normalizeDomain(input: string): string {
  let value = input.trim();
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) value = `http://${value}`;
  let host: string;
  try {
    host = new URL(value).hostname;
  } catch {
    host = input.trim();
  }
  return host.toLowerCase().replace(/\.+$/, '').replace(/^www\./, '');
}
