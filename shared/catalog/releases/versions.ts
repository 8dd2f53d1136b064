/**
 * Tolerant ordering of plugin version strings ("1.2", "1.10.0", "2.0.0-beta.2", "v3.1", "4.0RC1").
 *
 * Versions split into numeric and word parts. Missing numeric parts count as 0, so "1.2" equals
 * "1.2.0". Words mark pre-releases that come before the release itself (dev < alpha < beta < rc),
 * except patch-level words (pl, p, patch) that come after it, as PHP's version_compare orders them.
 * Semantic-versioning build metadata after "+" is ignored.
 */

type Part = { kind: 'number'; digits: string } | { kind: 'word'; rank: number; word: string };

/** Where the release itself sits among the words: below it are pre-releases, above it patch levels. */
const RELEASE_RANK = 4;
const WORD_RANKS: Record<string, number> = { dev: 0, alpha: 1, a: 1, beta: 2, b: 2, rc: 3, pre: 3, pl: 5, p: 5, patch: 5 };
/** Unrecognized words sort before every known pre-release word. */
const UNKNOWN_WORD_RANK = -1;

function parts(version: string): Part[] {
  const core = version.trim().toLowerCase().replace(/^v(?=\d)/, '').split('+')[0]!;
  return (core.match(/\d+|[a-z]+/g) ?? []).map((token) =>
    /^\d/.test(token)
      ? { kind: 'number', digits: token.replace(/^0+(?=\d)/, '') }
      : { kind: 'word', rank: WORD_RANKS[token] ?? UNKNOWN_WORD_RANK, word: token },
  );
}

const sign = (n: number) => (n > 0 ? 1 : n < 0 ? -1 : 0);

/** Numbers compared by magnitude without float precision limits (digit strings have no leading zeros). */
function compareDigits(a: string, b: string): number {
  return sign(a.length - b.length) || sign(a.localeCompare(b));
}

function compareParts(a: Part | undefined, b: Part | undefined): number {
  if (!a && !b) return 0;
  if (!a) return -compareParts(b, a);
  if (!b) return a.kind === 'number' ? compareDigits(a.digits, '0') : sign(a.rank - RELEASE_RANK);
  if (a.kind === 'number' && b.kind === 'number') return compareDigits(a.digits, b.digits);
  if (a.kind === 'word' && b.kind === 'word') return sign(a.rank - b.rank) || sign(a.word.localeCompare(b.word));
  // A number outranks a word at the same position: "1.0.1" > "1.0-beta".
  return a.kind === 'number' ? 1 : -1;
}

/** -1, 0 or 1 as `a` is older than, the same as, or newer than `b`. */
export function compareVersions(a: string, b: string): -1 | 0 | 1 {
  const left = parts(a);
  const right = parts(b);
  for (let i = 0; i < Math.max(left.length, right.length); i++) {
    const order = compareParts(left[i], right[i]);
    if (order !== 0) return order as -1 | 1;
  }
  return 0;
}

/** The newest of some versions, or undefined when there are none. */
export function highestVersion(versions: Iterable<string>): string | undefined {
  let highest: string | undefined;
  for (const version of versions) if (highest === undefined || compareVersions(version, highest) > 0) highest = version;
  return highest;
}

/**
 * One spelling of each version as `compareVersions` tells them apart: equal versions give the same key ("1.2",
 * "1.2.0", "v1.2" and "1.2+build.7" give "1.2"; "4.0RC1" and "4.0-rc.1" give "4.rc.1"), others different ones. It names
 * the version-claim item that holds a published version once per product.
 */
export function versionKey(version: string): string {
  const tokens = parts(version).map((part) => (part.kind === 'number' ? part.digits : part.word));
  // Trailing zeros are missing parts (1.2.0 = 1.2); a zero before a word is not (1.0-beta ≠ 1-beta).
  while (tokens.length > 1 && tokens.at(-1) === '0') tokens.pop();
  return tokens.join('.') || '0';
}

/**
 * What a release's and a product's `tested`, `requires` and `requiresPhp` may be: a version number such as 6.7,
 * 7.4 or 8.2.1 (one to four numbers separated by dots), as WordPress compares them.
 */
export const PLATFORM_VERSION_PATTERN = /^\d{1,5}(\.\d{1,5}){0,3}$/;
/** `PLATFORM_VERSION_PATTERN` in words. */
export const PLATFORM_VERSION_RULE = 'must be a version number such as 6.7 or 8.2.1';

/** What a release's version may look like: "1.2", "2.0.0-beta.1", "3.1+build.7". */
export const VERSION_PATTERN = /^[0-9A-Za-z][0-9A-Za-z._+-]{0,49}$/;
/** `VERSION_PATTERN` in words, for whoever sent a version (or made a ZIP) that does not match it. */
export const VERSION_RULE = 'must be 1-50 letters, digits, dots, hyphens, underscores or plus signs';
