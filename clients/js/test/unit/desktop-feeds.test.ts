import { describe, expect, it } from 'vitest';
import { electronFeedUrl, sparkleFeedUrl, tauriEndpoint } from '../../src/index.js';

const options = { baseUrl: 'https://licenses.example.com/', productSlug: 'acme-notes', licenseKey: 'ACME-7KQ2-M4XR-T9WB-H3NP' };

describe('desktop feed URLs', () => {
  it('names the feed of the product with the key, and the machine when given, in the query', () => {
    expect(electronFeedUrl(options)).toBe('https://licenses.example.com/v1/feeds/acme-notes/electron?license_key=ACME-7KQ2-M4XR-T9WB-H3NP');
    expect(tauriEndpoint({ ...options, machine: 'a b&c' })).toBe(
      'https://licenses.example.com/v1/feeds/acme-notes/tauri/{{target}}/{{arch}}/{{current_version}}?license_key=ACME-7KQ2-M4XR-T9WB-H3NP&machine=a+b%26c',
    );
    expect(sparkleFeedUrl(options)).toBe('https://licenses.example.com/v1/feeds/acme-notes/sparkle/appcast.xml?license_key=ACME-7KQ2-M4XR-T9WB-H3NP');
  });

  it('refuses a base that is not an http(s) URL and a missing slug or key', () => {
    expect(() => electronFeedUrl({ ...options, baseUrl: 'licenses.example.com' })).toThrow(TypeError);
    expect(() => tauriEndpoint({ ...options, productSlug: '' })).toThrow(/productSlug/);
    expect(() => sparkleFeedUrl({ ...options, licenseKey: '' })).toThrow(/licenseKey/);
  });
});
