import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { api, unwrap } from '../../api/client';
import { useServiceBaseUrl } from '../../api/service-base';
import type { Product } from '../../api/types';
import { CopyButton } from '../../components/CopyButton';
import { formatDate } from '../../components/format';
import { composerSnippet } from './composer-snippet';
import { connectSnippets } from './connect-snippets';
import { ACCOUNT_SETTINGS_KEY } from '../account/ComposerSection';
import { productKeys } from './productQueries';

/** How often the page asks whether the first activation has arrived, while it has not. */
const WAITING_POLL_MS = 3_000;

/**
 * How to connect a plugin or an app to the product (DECISIONS §22): the snippets with its values filled in, each with
 * a copy button, and the first activation, which the page waits for (polling) until a site or machine arrives.
 */
export function ConnectSection({ product }: { product: Product }) {
  // Where plugins reach the service; the dashboard's own origin where the service has not said (a role that may not
  // read the payment provider, which states it).
  const baseUrl = useServiceBaseUrl() ?? window.location.origin;
  // The account's Composer vendor names the package (only asked for when the product is Composer-enabled).
  const settings = useQuery({ queryKey: ACCOUNT_SETTINGS_KEY, queryFn: () => unwrap(api.GET('/api/account/settings')), enabled: product.composerEnabled });
  const vendor = product.composerEnabled ? settings.data?.composerVendor : undefined;
  const snippets = [...connectSnippets({ baseUrl, product }), ...(vendor ? [composerSnippet({ baseUrl, vendor, slug: product.slug })] : [])];
  return (
    <section className="card" id="connect" aria-labelledby="connect-heading">
      <h2 id="connect-heading">Connect</h2>
      <p className="muted">
        Paste one of these into your plugin or app: each has this product&rsquo;s slug, public key and signing keys filled in. None of them is a
        secret.
      </p>
      <FirstActivation productId={product.id} />
      {snippets.map((snippet) => (
        <div key={snippet.id} className="snippet">
          <div className="row-head">
            <h3 id={`snippet-${snippet.id}`}>{snippet.title}</h3>
            <CopyButton value={snippet.code} label={`Copy the ${snippet.name} snippet`} />
          </div>
          <pre tabIndex={0} aria-labelledby={`snippet-${snippet.id}`}>
            <code data-snippet={snippet.id}>{snippet.code}</code>
          </pre>
        </div>
      ))}
    </section>
  );
}

/** "Waiting for the first activation", until the service has one: then the site's or machine's name. */
function FirstActivation({ productId }: { productId: string }) {
  const first = useQuery({
    queryKey: [...productKeys.one(productId), 'first-activation'],
    queryFn: () => unwrap(api.GET('/api/products/{id}/first-activation', { params: { path: { id: productId } } })),
    refetchInterval: (query) => (query.state.data?.firstActivation ? false : WAITING_POLL_MS),
  });
  const activation = first.data?.firstActivation;
  return (
    <p className="first-activation" role="status" aria-live="polite">
      {activation ? (
        <span>
          <span className="badge badge-good">Connected</span> First activation: <strong>{activation.site}</strong>, {formatDate(activation.activatedAt)}
          {activation.licenseId && (
            <>
              {' '}
              (<Link to={`/licenses/${activation.licenseId}`}>its license</Link>)
            </>
          )}
        </span>
      ) : (
        <span>
          <span className="spinner" aria-hidden="true" /> Waiting for the first activation…
        </span>
      )}
    </p>
  );
}
