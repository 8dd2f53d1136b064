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
 * `staging.shop.com`, `*.dev.*` matches `shop.dev.example.com`. `{ip}` matches any IP literal (IPv4, or
 * IPv6 as the normalized domain writes it, `[::1]`). Patterns are compared with the normalized domain
 * (lower-case, punycode for international names), so they are written lower-case and in punycode too.
 */

export type Environment = (typeof ACTIVATION_ENVIRONMENTS)[number];

/** The pattern that matches IP literals. */
export const IP_LITERAL_PATTERN = '{ip}';

/** Used while the product names none of its own (`stagingPatterns` null or absent). */
export const DEFAULT_STAGING_PATTERNS: readonly string[] = Object.freeze([
  'localhost',
  IP_LITERAL_PATTERN,
  '*.local',
  '*.test',
  '*.example',
  '*.invalid',
  'staging.*',
  '*.staging.*',
  'dev.*',
  '*.dev.*',
]);

export const MAX_STAGING_ACTIVATION_LIMIT = 100;
export const MAX_STAGING_PATTERNS = 50;
const MAX_PATTERN_LENGTH = 253;

const LABEL = /^[a-z0-9_-]{1,63}$/;

/**
 * Why a (trimmed, lower-cased) pattern cannot be used, or undefined when it can. A pattern must name at least
 * one label of its own: `*` or `*.*` would make every site a staging site.
 */
export function stagingPatternProblem(pattern: string): string | undefined {
  if (pattern === IP_LITERAL_PATTERN) return undefined;
  if (pattern.length === 0 || pattern.length > MAX_PATTERN_LENGTH) return `must be 1 to ${MAX_PATTERN_LENGTH} characters`;
  const labels = pattern.split('.');
  if (labels.some((label) => label !== '*' && !LABEL.test(label))) {
    return 'must be labels of a-z, 0-9, - or _ (or * for any labels) joined by dots, or {ip}';
  }
  if (labels.every((label) => label === '*')) return 'must name at least one label besides *';
  return undefined;
}

/** True when `labels[from…]` is matched by `pattern[at…]`; `*` takes one or more labels. Memoized: O(pattern × labels). */
function matchesLabels(pattern: readonly string[], labels: readonly string[]): boolean {
  const failed = new Set<number>();
  const match = (at: number, from: number): boolean => {
    if (at === pattern.length) return from === labels.length;
    const state = at * (labels.length + 1) + from;
    if (failed.has(state)) return false;
    let matched = false;
    if (pattern[at] === '*') {
      for (let to = from + 1; to <= labels.length && !matched; to++) matched = match(at + 1, to);
    } else {
      matched = from < labels.length && pattern[at] === labels[from] && match(at + 1, from + 1);
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
  const compiled = (patterns ?? DEFAULT_STAGING_PATTERNS).map((pattern) => pattern.split('.'));
  const ipLiterals = compiled.some((labels) => labels.length === 1 && labels[0] === IP_LITERAL_PATTERN);
  const hostPatterns = compiled.filter((labels) => !(labels.length === 1 && labels[0] === IP_LITERAL_PATTERN));
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
