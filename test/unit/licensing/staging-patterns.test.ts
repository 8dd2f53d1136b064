import { describe, expect, it } from 'vitest';
import { normalizeDomain } from '../../../shared/licensing/operations/domain.js';
import { DEFAULT_STAGING_RULES, stagingPatternProblem, stagingRules } from '../../../shared/licensing/operations/staging.js';

const environmentOf = (input: string, rules = DEFAULT_STAGING_RULES) => rules.environmentOf(normalizeDomain(input));

describe('default staging patterns', () => {
  it.each([
    'localhost',
    'http://localhost:8080/wp',
    '127.0.0.1',
    'http://10.0.0.5:3000',
    'http://[::1]:8080/',
    '[2001:db8::1]',
    'shop.local',
    'a.b.local',
    'shop.test',
    'shop.example',
    'https://www.shop.example/',
    'x.invalid',
    'staging.shop.com',
    'shop.staging.example.com',
    'dev.shop.com',
    'shop.dev.example.com',
    // What EDD Software Licensing counts as free local copies (DECISIONS §27), and Kinsta's staging sites.
    'shop.dev',
    'shop.localhost',
    'myshop.wpengine.com',
    'myshopstg.wpengine.com',
    'staging-myshop.kinsta.cloud',
    'staging-myshop.kinsta.com',
  ])('%s is a staging site', (domain) => {
    expect(environmentOf(domain)).toBe('staging');
  });

  it.each([
    'example.com',
    'shop.example.com',
    'local',
    'example',
    'staging',
    'mystaging.shop.com',
    'shop.com.staging',
    'shop-dev.com',
    'devshop.com',
    'localhost.shop.com',
    'www.dev', // `www.` is dropped: the domain is `dev`
    '1.2.3.4.example.com',
    'myshop.kinsta.cloud',
    'staging-myshop.kinsta.cloud.example.com',
    'wpengine.com',
  ])('%s is a production site', (domain) => {
    expect(environmentOf(domain)).toBe('production');
  });

  it('has a limit of 3 staging sites per license', () => {
    expect(DEFAULT_STAGING_RULES.limit).toBe(3);
  });
});

describe("a product's own patterns", () => {
  it('replace the defaults; [] makes every site a production site', () => {
    const own = stagingRules(['*.preview.shop.com', 'qa-box'], 5);
    expect([environmentOf('a.preview.shop.com', own), environmentOf('qa-box', own), environmentOf('localhost', own)]).toEqual(['staging', 'staging', 'production']);
    expect(own.limit).toBe(5);
    const none = stagingRules([], undefined);
    expect(['localhost', '127.0.0.1', 'shop.test'].map((d) => environmentOf(d, none))).toEqual(['production', 'production', 'production']);
  });

  it('match IP literals only through {ip}', () => {
    expect(environmentOf('192.168.1.10', stagingRules(['{ip}'], 1))).toBe('staging');
    expect(environmentOf('192.168.1.10', stagingRules(['*.local'], 1))).toBe('production');
  });

  it('match a long domain against several wildcards in time', () => {
    const rules = stagingRules(['*.*.*.*.x'], 1);
    const long = Array.from({ length: 120 }, () => 'a').join('.');
    const started = performance.now();
    expect(rules.environmentOf(long)).toBe('production');
    expect(rules.environmentOf(`${long}.x`)).toBe('staging');
    expect(performance.now() - started).toBeLessThan(100);
  });

  it.each([
    ['*', 'must name at least one label besides *'],
    ['*.*', 'must name at least one label besides *'],
    ['shop..com', 'must be labels of a-z, 0-9, - or _ (or * for any labels, or for any characters within a label) joined by dots, or {ip}'],
    ['https://shop.com', 'must be labels of a-z, 0-9, - or _ (or * for any labels, or for any characters within a label) joined by dots, or {ip}'],
    ['**.*', 'must name at least one label besides *'],
    ['', 'must be 1 to 253 characters'],
  ])('refuse %j', (pattern, problem) => {
    expect(stagingPatternProblem(pattern)).toBe(problem);
  });

  it.each(['localhost', '{ip}', '*.local', 'staging.*', '*.dev.*', 'xn--bcher-kva.test', 'my_box', 'staging-*.shop.com', '*-qa.*'])('accept %j', (pattern) => {
    expect(stagingPatternProblem(pattern)).toBeUndefined();
  });

  it('match a * within a label against that one label only', () => {
    const rules = stagingRules(['staging-*.shop.com', '*-qa.*'], 1);
    expect(['staging-1.shop.com', 'staging-.shop.com', 'eu-qa.shop.com', 'a.eu-qa.shop.com'].map((d) => environmentOf(d, rules))).toEqual(['staging', 'staging', 'staging', 'production']);
    expect(['staging.shop.com', 'staging-1.eu.shop.com', 'staging-1.shop.com.evil.com'].map((d) => environmentOf(d, rules))).toEqual(['production', 'production', 'production']);
  });
});
