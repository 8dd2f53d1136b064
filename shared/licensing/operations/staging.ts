import { isIP } from 'node:net';
import type { ACTIVATION_ENVIRONMENTS } from '../../platform/data/index.js';
import { DEFAULT_STAGING_ACTIVATION_LIMIT } from '../../catalog/index.js';

/**
 * Staging and local sites: a domain that matches one of its product's non-production patterns activates
 * without taking a seat (`environment: "staging"`), up to a number of such activations per license, so that
 * a customer's staging, development and local copies of a site do not eat the seats they paid for.
 *
 * A pattern is a host name whose labels are matched one by one, where a label `*` stands for one or more
 * labels: `*.local` matches `shop.local` and `a.b.local` (not `local`), `staging.*` matches
 * `staging.shop.com`, `*.dev.*` matches `shop.dev.example.com`; within a label, `*` stands for any characters
 * of that one label: `staging-*.kinsta.cloud` matches `staging-shop.kinsta.cloud`. `{ip}` matches any IP literal
 * (IPv4, or IPv6 as the normalized domain writes it, `[::1]`). Patterns are compared with the normalized domain
 * (lower-case, punycode for international names), so they are written lower-case and in punycode too.
 */

export type Environment = (typeof ACTIVATION_ENVIRONMENTS)[number];

/** The pattern that matches IP literals. */
export const IP_LITERAL_PATTERN = '{ip}';

/**
 * Used while the product names none of its own (`stagingPatterns` null or absent): local names and addresses, the
 * reserved test domains, staging and development subdomains, and the hosts that the stores vendors move from treat as
 * free local copies (EDD Software Licensing's `is_local_url`: `*.dev`, `*.local`, `*.test`, `*.wpengine.com`,
 * `staging-*` hosts, private addresses; Kinsta's staging sites), so that an imported license's copies take no seat here
 * either (DECISIONS §27).
 */
export const DEFAULT_STAGING_PATTERNS: readonly string[] = Object.freeze([
  'localhost',
  '*.localhost',
  IP_LITERAL_PATTERN,
  '*.local',
  '*.test',
  '*.dev',
  '*.example',
  '*.invalid',
  'staging.*',
  '*.staging.*',
  'dev.*',
  '*.dev.*',
  '*.wpengine.com',
  'staging-*.kinsta.cloud',
  'staging-*.kinsta.com',
]);

export const MAX_STAGING_ACTIVATION_LIMIT = 100;
export const MAX_STAGING_PATTERNS = 50;
const MAX_PATTERN_LENGTH = 253;

const LABEL = /^[a-z0-9_*-]{1,63}$/;
const LABEL_PROBLEM = 'must be labels of a-z, 0-9, - or _ (or * for any labels, or for any characters within a label) joined by dots, or {ip}';

/**
 * Why a (trimmed, lower-cased) pattern cannot be used, or undefined when it can. A pattern must name at least
 * one label of its own: `*` or `*.*` would make every site a staging site.
 */
export function stagingPatternProblem(pattern: string): string | undefined {
  if (pattern === IP_LITERAL_PATTERN) return undefined;
  if (pattern.length === 0 || pattern.length > MAX_PATTERN_LENGTH) return `must be 1 to ${MAX_PATTERN_LENGTH} characters`;
  const labels = pattern.split('.');
  if (labels.some((label) => !LABEL.test(label))) return LABEL_PROBLEM;
  if (labels.every((label) => /^\*+$/.test(label))) return 'must name at least one label besides *';
  return undefined;
}

/** A pattern's label: itself, `*` (one or more labels), or one label matched by a glob (`staging-*`). */
type LabelPattern = string | RegExp;

// A label's characters (a-z, 0-9, -, _) mean themselves in a regular expression.
const labelPatternOf = (label: string): LabelPattern => (label === '*' || !label.includes('*') ? label : new RegExp(`^${label.replaceAll('*', '[^.]*')}$`));

const labelMatches = (pattern: LabelPattern, label: string) => (typeof pattern === 'string' ? pattern === label : pattern.test(label));

/** True when `labels[from…]` is matched by `pattern[at…]`; `*` takes one or more labels. Memoized: O(pattern × labels). */
function matchesLabels(pattern: readonly LabelPattern[], labels: readonly string[]): boolean {
  const failed = new Set<number>();
  const match = (at: number, from: number): boolean => {
    if (at === pattern.length) return from === labels.length;
    const state = at * (labels.length + 1) + from;
    if (failed.has(state)) return false;
    let matched = false;
    if (pattern[at] === '*') {
      for (let to = from + 1; to <= labels.length && !matched; to++) matched = match(at + 1, to);
    } else {
      matched = from < labels.length && labelMatches(pattern[at]!, labels[from]!) && match(at + 1, from + 1);
    }
    if (!matched) failed.add(state);
    return matched;
  };
  return match(0, 0);
}

const isIpLiteral = (domain: string) => isIP(domain) === 4 || (domain.startsWith('[') && domain.endsWith(']') && isIP(domain.slice(1, -1)) === 6);

/** What activation needs of a product's staging settings: which domains are staging sites, and how many a license may hold. */
export type StagingRules = { environmentOf(domain: string): Environment; limit: number };

/**
 * The staging rules of a product: `patterns` null or absent means the defaults, `[]` none (every site takes a
 * seat); `limit` null or absent means the default. Built once per cached product, not per request.
 */
export function stagingRules(patterns: readonly string[] | null | undefined, limit: number | null | undefined): StagingRules {
  const all = patterns ?? DEFAULT_STAGING_PATTERNS;
  const ipLiterals = all.includes(IP_LITERAL_PATTERN);
  const hostPatterns = all.filter((pattern) => pattern !== IP_LITERAL_PATTERN).map((pattern) => pattern.split('.').map(labelPatternOf));
  return {
    limit: limit ?? DEFAULT_STAGING_ACTIVATION_LIMIT,
    environmentOf(domain) {
      if (isIpLiteral(domain)) return ipLiterals ? 'staging' : 'production';
      const labels = domain.split('.');
      return hostPatterns.some((pattern) => matchesLabels(pattern, labels)) ? 'staging' : 'production';
    },
  };
}

export const DEFAULT_STAGING_RULES = stagingRules(undefined, undefined);
