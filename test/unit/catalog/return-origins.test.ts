import { describe, expect, it } from 'vitest';
import { isReturnUrlAllowed, parseReturnOrigin } from '../../../shared/catalog/products/return-origins.js';

describe('return origins', () => {
  it('are https origins as browsers write them; http only for loopback hosts', () => {
    expect(parseReturnOrigin('https://Shop.Example.com:443/')).toEqual({ origin: 'https://shop.example.com' });
    expect(parseReturnOrigin('https://shop.example.com:8443')).toEqual({ origin: 'https://shop.example.com:8443' });
    expect(parseReturnOrigin('http://localhost:5173')).toEqual({ origin: 'http://localhost:5173' });
    expect(parseReturnOrigin('http://[::1]')).toEqual({ origin: 'http://[::1]' });
    for (const value of ['http://shop.example.com', 'https://*.example.com', 'https://shop.example.com.', 'https://u@shop.example.com', 'shop.example.com', '']) {
      expect([value, parseReturnOrigin(value)]).toEqual([value, { problem: expect.stringContaining('https origin') }]);
    }
    for (const value of ['https://shop.example.com/a', 'https://shop.example.com/?', 'https://shop.example.com#']) {
      expect([value, parseReturnOrigin(value)]).toEqual([value, { problem: expect.stringContaining('without a path') }]);
    }
  });

  it('let a return URL through when its origin is listed, or when nothing is', () => {
    const origins = ['https://shop.example.com', 'http://localhost:5173'];
    expect(isReturnUrlAllowed(origins, 'https://SHOP.example.com:443/thanks?x=1#y')).toBe(true);
    expect(isReturnUrlAllowed(origins, 'http://localhost:5173/')).toBe(true);
    for (const url of ['http://shop.example.com/', 'https://shop.example.com:444/', 'https://shop.example.com.evil.net/', 'https://evil.net/?https://shop.example.com']) {
      expect([url, isReturnUrlAllowed(origins, url)]).toEqual([url, false]);
    }
    expect(isReturnUrlAllowed([], 'https://anywhere.example.net/')).toBe(true);
  });
});
