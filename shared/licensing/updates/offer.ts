import { cappedChannel, type Channel, channelAllows, compareVersions, DEFAULT_CHANNEL, inRollout } from '../../catalog/index.js';
import { isExpired, mayReceive, type LicenseAccess } from './license-access.js';
import type { ProductItem, ReleaseItem } from './release-catalog.js';

/** What the site tells the update check about itself (DECISIONS §14); what it does not send is not checked. */
export type SiteFacts = {
  /** The site's own choice of channel, capped by its license's. */
  channel?: Channel;
  php?: string;
  wp?: string;
  /** Whose rollout bucket counts: the site's normalized domain, else the license key. */
  rolloutSubject: string;
};

/** What the update check offers: the release it describes, whether with a download, and what renewing would bring. */
export type Offer = {
  release?: ReleaseItem;
  /** The releases the site may be shown, newest first, from the offered one down: the changelog's. */
  history: ReleaseItem[];
  downloadable: boolean;
  /** An expired license's: the newest release it would be offered if renewed, when that is not what it gets. */
  renewTo?: ReleaseItem;
};

/** A requirement met by the site's version, or not checked (not sent, or the release sets none). */
const meets = (siteVersion: string | undefined, required: string | undefined) =>
  siteVersion === undefined || required === undefined || compareVersions(siteVersion, required) >= 0;

/**
 * The newest published release the site may have (DECISIONS §14): on a channel it may receive (stable only without
 * a license that gives any), whose PHP and WordPress requirements (the release's, else the product's) its versions
 * meet, and whose rollout includes it. An expired license kept to releases published before its expiry is offered
 * the newest of those, and told of the newest it would get by renewing.
 */
export function chooseOffer(product: ProductItem, published: ReleaseItem[], access: LicenseAccess, site: SiteFacts): Offer {
  const allowed = access.kind === 'none' ? DEFAULT_CHANNEL : cappedChannel(access.channel, site.channel);
  const suitable = published.filter(
    (release) =>
      channelAllows(allowed, release.channel ?? DEFAULT_CHANNEL) &&
      meets(site.php, release.requiresPhp ?? product.requiresPhp) &&
      meets(site.wp, release.requires ?? product.requires) &&
      inRollout(release, site.rolloutSubject),
  );
  const newest = suitable[0];
  const release = access.kind === 'none' ? newest : suitable.find((candidate) => mayReceive(access, candidate));
  const downloadable = release !== undefined && access.kind !== 'none';
  const renewTo = isExpired(access) && newest !== undefined && !(downloadable && release === newest) ? newest : undefined;
  const history = release ? published.filter((r) => channelAllows(allowed, r.channel ?? DEFAULT_CHANNEL) && compareVersions(r.version, release.version) <= 0) : [];
  return { release, history, downloadable, ...(renewTo && { renewTo }) };
}
