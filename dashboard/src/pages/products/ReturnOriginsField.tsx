import { Field } from '../../components/Field';

/** The service's rules for a product's return origins (docs/api.md, Products): at most 20 origins. */
const MAX_RETURN_ORIGINS = 20;
/** Hosts where plain http is allowed, for development. */
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** The origins typed, one a line. */
export const originLines = (text: string) => text.split('\n').map((line) => line.trim()).filter(Boolean);

/** `https://host[:port]` (http only for loopback hosts), with no path, query, fragment, credentials or wildcard. */
function isReturnOrigin(value: string): boolean {
  try {
    const url = new URL(value);
    const scheme = url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname));
    return scheme && !url.username && !url.password && !url.hostname.includes('*') && url.pathname === '/' && !/[?#]/.test(value);
  } catch {
    return false;
  }
}

/** What the service would refuse in a list of return origins, checked before sending. */
export function returnOriginsProblem(origins: string[]): string | undefined {
  if (origins.length > MAX_RETURN_ORIGINS) return `Return origins: at most ${MAX_RETURN_ORIGINS}`;
  const bad = origins.find((origin) => !isReturnOrigin(origin));
  return bad === undefined ? undefined : `Return origin ${bad} is not an origin such as https://shop.example.com (http only for localhost)`;
}

/** `warnWhenEmpty`: say what an empty list allows (a saved product's form; a new one has nothing to warn about yet). */
type ReturnOriginsFieldProps = { value: string; error?: string; onChange: (value: string) => void; warnWhenEmpty: boolean };

/**
 * Where checkout may send a buyer back with their license key. Without a list any `return_url` is accepted, so
 * anyone can make a checkout link that sends a bought key to their own site: a saved product's form says so while it
 * is empty.
 */
export function ReturnOriginsField({ value, error, onChange, warnWhenEmpty }: ReturnOriginsFieldProps) {
  return (
    <>
      <Field label="Return origins" hint="One a line, such as https://shop.example.com: checkout sends buyers back with their key only to these" error={error}>
        <textarea rows={3} value={value} onChange={(event) => onChange(event.target.value)} />
      </Field>
      {warnWhenEmpty && originLines(value).length === 0 && (
        <p className="banner banner-warning" role="note">
          <strong>No return origins.</strong> Checkout accepts any <code>return_url</code>, so a checkout link made by anyone can send a
          buyer&rsquo;s new license key to a site of theirs. List the sites your buyers return to.
        </p>
      )}
    </>
  );
}
