import { type FeedContext, fileFor, offeredHistory, platformFileUrl } from './feed-access.js';
import type { ReleaseItem } from '../release-catalog.js';

export const SPARKLE_NAMESPACE = 'http://www.andymatuschak.org/xml-namespaces/sparkle';
/** Items an appcast lists: the offered release and older ones, for systems the newest no longer supports. */
const MAX_ITEMS = 10;

const XML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };
/**
 * Text safe in XML content and attribute values: markup characters escaped, and characters XML 1.0 does not allow
 * (controls other than tab and line breaks, lone surrogates, U+FFFE/U+FFFF) dropped.
 */
export const xmlText = (text: string) =>
  text
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '')
    .replace(/[&<>"']/g, (char) => XML_ESCAPES[char]!);

/**
 * A Sparkle appcast for the key (DECISIONS §26): an RSS 2.0 channel in Sparkle's namespace whose items are the macOS
 * releases it may have, newest first (the `macos-arm64` file of each, else the `macos-x64` one; a Universal build is
 * uploaded as either): `sparkle:version` and `sparkle:shortVersionString` (the release's version: the service
 * knows one), `sparkle:minimumSystemVersion` when the release (or the product) sets `requires`, and an `enclosure` with
 * `url`, `length`, `type` and, when the vendor gave one, `sparkle:edSignature`. No release: a channel with no item,
 * which Sparkle reads as no update.
 */
export function sparkleAppcast(context: FeedContext): string {
  const arm = offeredHistory(context, 'macos-arm64', MAX_ITEMS);
  const releases = arm.length ? arm : offeredHistory(context, 'macos-x64', MAX_ITEMS);
  const platform = arm.length ? 'macos-arm64' : 'macos-x64';
  const items = releases.map((release) => item(context, release, platform));
  return [
    '<?xml version="1.0" encoding="utf-8"?>',
    `<rss version="2.0" xmlns:sparkle="${SPARKLE_NAMESPACE}" xmlns:dc="http://purl.org/dc/elements/1.1/">`,
    '  <channel>',
    `    <title>${xmlText(context.product.name)}</title>`,
    ...(context.product.homepage ? [`    <link>${xmlText(context.product.homepage)}</link>`] : []),
    `    <description>${xmlText(`Updates of ${context.product.name}`)}</description>`,
    ...items,
    '  </channel>',
    '</rss>',
    '',
  ].join('\n');
}

function item(context: FeedContext, release: ReleaseItem, platform: 'macos-arm64' | 'macos-x64'): string {
  const file = fileFor(release, platform)!;
  const minimumSystem = release.requires ?? context.product.requires;
  const enclosure = [
    `url="${xmlText(platformFileUrl(context.request, release, file))}"`,
    `length="${file.fileSize}"`,
    'type="application/octet-stream"',
    ...(file.signature ? [`sparkle:edSignature="${xmlText(file.signature)}"`] : []),
  ].join(' ');
  return [
    '    <item>',
    `      <title>${xmlText(`Version ${release.version}`)}</title>`,
    `      <pubDate>${new Date(release.releasedAt ?? release.createdAt).toUTCString()}</pubDate>`,
    `      <sparkle:version>${xmlText(release.version)}</sparkle:version>`,
    `      <sparkle:shortVersionString>${xmlText(release.version)}</sparkle:shortVersionString>`,
    ...(minimumSystem ? [`      <sparkle:minimumSystemVersion>${xmlText(minimumSystem)}</sparkle:minimumSystemVersion>`] : []),
    ...(release.releaseNotes ? [`      <description>${xmlText(release.releaseNotes)}</description>`] : []),
    `      <enclosure ${enclosure}/>`,
    '    </item>',
  ].join('\n');
}
