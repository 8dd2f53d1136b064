import type { EntityItem } from '../../platform/data/index.js';
import { escapeHtml } from '../../platform/index.js';
import { compareVersions } from '../../catalog/index.js';
import type { Offer } from './offer.js';
import type { ProductItem, ReleaseItem } from './release-catalog.js';

/** How many releases the changelog section lists. */
const CHANGELOG_RELEASES = 50;

type ReleaseReadme = Pick<EntityItem<'releaseReadme'>, 'sections' | 'upgradeNotices'>;

/** Plain text as an HTML paragraph: escaped, line breaks kept. */
function paragraph(text: string | undefined): string {
  return text?.trim() ? `<p>${escapeHtml(text.trim()).replace(/\r?\n/g, '<br>\n')}</p>` : '';
}

/** The releases' notes as HTML, newest first: a heading per version, then its notes. */
export function changelogHtml(releases: ReleaseItem[]): string {
  return releases
    .slice(0, CHANGELOG_RELEASES)
    .map((release) => `<h4>${escapeHtml(release.version)}</h4>\n${paragraph(release.releaseNotes)}`.trim())
    .join('\n');
}

/** The notice shown above an expired license's update row (DECISIONS §14). */
export const renewNotice = (version: string) => `Renew your license to update to ${version}`;

/**
 * The update-check answer in the format WordPress's plugin update mechanism reads (DECISIONS §5, §14). Everything
 * describes the offered release: `version` and `new_version` both name it; `package` is given only with a download
 * URL; its metadata wins over the product's. Its readme's sections win over the ones made from the product and the
 * releases' notes. An expired license's `upgrade_notice` says what renewing brings, with `renewal_url` when there
 * is a plan to renew; otherwise the readme's notice for the offered version, if any.
 */
export function updateInfo(
  product: ProductItem,
  offer: Offer,
  extras: { packageUrl?: string; readme?: ReleaseReadme; renewalUrl?: string },
) {
  const { release } = offer;
  const icon = product.logoUrl ?? product.icon ?? null;
  const banner = product.bannerUrl ?? null;
  const readme = extras.readme;
  const readmeNotice = release && readme?.upgradeNotices.find((notice) => compareVersions(notice.version, release.version) === 0)?.notice;
  const upgradeNotice = offer.renewTo ? renewNotice(offer.renewTo.version) : readmeNotice;
  return {
    name: product.name,
    slug: product.slug,
    version: release?.version ?? null,
    new_version: release?.version ?? null,
    url: product.homepage ?? product.readmeUrl ?? null,
    ...(extras.packageUrl ? { package: extras.packageUrl } : {}),
    tested: release?.tested ?? product.tested ?? null,
    requires: release?.requires ?? product.requires ?? null,
    requires_php: release?.requiresPhp ?? product.requiresPhp ?? null,
    ...(upgradeNotice ? { upgrade_notice: upgradeNotice } : {}),
    ...(offer.renewTo && extras.renewalUrl ? { renewal_url: extras.renewalUrl } : {}),
    icons: { '1x': icon, '2x': icon },
    banners: { low: banner, high: banner },
    sections: {
      description: paragraph(product.description),
      changelog: changelogHtml(offer.history),
      ...readme?.sections,
    },
  };
}
