import { escapeHtml } from '../html.js';
import type { ProductReleases } from './release-catalog.js';

/** How many releases the changelog section lists. */
const CHANGELOG_RELEASES = 50;

/** Plain text as an HTML paragraph: escaped, line breaks kept. */
function paragraph(text: string | undefined): string {
  return text?.trim() ? `<p>${escapeHtml(text.trim()).replace(/\r?\n/g, '<br>\n')}</p>` : '';
}

/** The releases' notes as HTML, newest first: a heading per version, then its notes. */
export function changelogHtml(published: ProductReleases['published']): string {
  return published
    .slice(0, CHANGELOG_RELEASES)
    .map((release) => `<h4>${escapeHtml(release.version)}</h4>\n${paragraph(release.releaseNotes)}`.trim())
    .join('\n');
}

/**
 * The update-check answer in the format WordPress's plugin update mechanism reads (DECISIONS §5).
 * `version` and `new_version` are both the latest published release; `package` is only given with a
 * download URL, i.e. for a valid key of this product. Release metadata wins over the product's.
 */
export function updateInfo({ product, published }: ProductReleases, packageUrl: string | undefined) {
  const latest = published[0];
  const icon = product.logoUrl ?? product.icon ?? null;
  const banner = product.bannerUrl ?? null;
  return {
    name: product.name,
    slug: product.slug,
    version: latest?.version ?? null,
    new_version: latest?.version ?? null,
    url: product.homepage ?? product.readmeUrl ?? null,
    ...(packageUrl ? { package: packageUrl } : {}),
    tested: latest?.tested ?? product.tested ?? null,
    requires: latest?.requires ?? product.requires ?? null,
    requires_php: latest?.requiresPhp ?? product.requiresPhp ?? null,
    icons: { '1x': icon, '2x': icon },
    banners: { low: banner, high: banner },
    sections: { description: paragraph(product.description), changelog: changelogHtml(published) },
  };
}
