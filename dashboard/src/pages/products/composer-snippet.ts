import type { Snippet } from './connect-snippets';

/**
 * What a customer adds to their project to install the product with Composer (DECISIONS §24, docs/composer.md):
 * `auth.json` with their license key, and the repository in `composer.json`. The key is the customer's: a placeholder here.
 */
export function composerSnippet({ baseUrl, vendor, slug }: { baseUrl: string; vendor: string; slug: string }): Snippet {
  const host = new URL(baseUrl).host;
  const authJson = { 'http-basic': { [host]: { username: 'YOUR-LICENSE-KEY', password: 'https://your-site.example' } } };
  const composerJson = { repositories: [{ type: 'composer', url: `${baseUrl}/composer` }], require: { [`${vendor}/${slug}`]: '*' } };
  return {
    id: 'composer',
    name: 'Composer',
    title: 'Composer (for your customers)',
    code: `// auth.json, beside composer.json (keep it out of version control)
${JSON.stringify(authJson, null, 2)}

// composer.json
${JSON.stringify(composerJson, null, 2)}

// or: composer require ${vendor}/${slug}`,
  };
}
