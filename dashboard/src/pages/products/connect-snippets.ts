import type { Product } from '../../api/types';

/** `name`: what its copy button says ("Copy the PHP snippet"). */
export type Snippet = { id: string; name: string; title: string; code: string };

/** The product's values a client needs, as the snippets fill them in. */
type Values = { baseUrl: string; product: Pick<Product, 'slug' | 'public_key' | 'signingKeys'> };

const EXAMPLE_SITE = 'customer-site.com';

/** The signing keys a client should pin: every key the service may sign with now (the current one, and any in its grace). */
const pinnedKeys = (product: Values['product']) => product.signingKeys.map(({ keyId, publicKey }) => ({ keyId, publicKey }));

function phpSigning(product: Values['product'], indent: string): string {
  const keys = pinnedKeys(product);
  if (keys.length === 0) return '';
  const lines = keys.map((key) => `${indent}    ['keyId' => '${key.keyId}', 'publicKey' => '${key.publicKey}'],`);
  return `\n${indent}'signing'      => ['public_keys' => [\n${lines.join('\n')}\n${indent}]],`;
}

function jsSigning(product: Values['product']): string {
  const keys = pinnedKeys(product);
  if (keys.length === 0) return '';
  const lines = keys.map((key) => `    { keyId: '${key.keyId}', publicKey: '${key.publicKey}' },`);
  return `\n  signing: { publicKeys: [\n${lines.join('\n')}\n  ] },`;
}

/**
 * What to paste into a plugin or an app to connect it to this product (DECISIONS §22): the WordPress updater, the PHP
 * and JavaScript clients (clients/php/README.md, clients/js/README.md) and a bare activate call, with the product's
 * slug, public key and signing keys filled in. Only public values: nothing here is a secret.
 */
export function connectSnippets({ baseUrl, product }: Values): Snippet[] {
  const { slug, public_key: publicKey } = product;
  return [
    {
      id: 'wordpress',
      name: 'WordPress',
      title: 'WordPress plugin (updater and license box)',
      code: `// In your plugin's main file, with the PHP client copied to vendor/licensing/
require_once __DIR__ . '/vendor/licensing/autoload.php';

$updater = new \\Licensing\\WordPress\\Updater([
    'file'         => __FILE__,
    'slug'         => '${slug}',
    'base_url'     => '${baseUrl}',
    'public_key'   => '${publicKey}',${phpSigning(product, '    ')}
    'settings_url' => admin_url('options-general.php?page=${slug}'),
]);
$updater->register();

// On your settings page:
$updater->licenseBox()->render();`,
    },
    {
      id: 'php',
      name: 'PHP',
      title: 'PHP client',
      code: `require __DIR__ . '/vendor/licensing/autoload.php';

$licensing = new \\Licensing\\Client([
    'base_url'     => '${baseUrl}',
    'public_key'   => '${publicKey}',
    'product_slug' => '${slug}',${phpSigning(product, '    ')}
]);
$licensing->activate($key, '${EXAMPLE_SITE}');
$result = $licensing->validate($key, ['domain' => '${EXAMPLE_SITE}']);`,
    },
    {
      id: 'javascript',
      name: 'JavaScript',
      title: 'JavaScript client (npm install @licensing-service/client)',
      code: `import { LicensingClient } from '@licensing-service/client';

const licensing = new LicensingClient({
  baseUrl: '${baseUrl}',
  publicKey: '${publicKey}',
  productSlug: '${slug}',${jsSigning(product)}
});
await licensing.activate(key, '${EXAMPLE_SITE}');
const result = await licensing.validate(key, { domain: '${EXAMPLE_SITE}' });`,
    },
    {
      id: 'curl',
      name: 'curl',
      title: 'Any language: the activate call with curl',
      code: `curl -X POST '${baseUrl}/public/v1/licenses/activate' \\
  -H 'content-type: application/json' \\
  -d '{"public_key": "${publicKey}", "license_key": "YOUR-LICENSE-KEY", "domain": "${EXAMPLE_SITE}"}'`,
    },
  ];
}
