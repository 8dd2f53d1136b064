import { describe, expect, it } from 'vitest';
import { createOAuthProviders } from '../../../shared/identity/accounts/oauth-providers.js';
import { ALL_CONFIG_SECTIONS, loadConfig } from '../../../shared/platform/config.js';

const config = (env: Record<string, string>) => loadConfig({ TABLE_NAME: 'table', RUNTIME: 'local', ...env }, ALL_CONFIG_SECTIONS);
const configured = (env: Record<string, string>) => Object.keys(createOAuthProviders(config(env))).sort();

describe('OAuth providers from the environment', () => {
  it('are configured with a client id and a secret, or the Secrets Manager id of one; not with less', () => {
    expect(configured({})).toEqual([]);
    expect(configured({ GOOGLE_CLIENT_ID: 'g' })).toEqual([]);
    expect(configured({ GITHUB_CLIENT_SECRET: 's' })).toEqual([]);
    expect(configured({ GOOGLE_CLIENT_ID: 'g', GOOGLE_CLIENT_SECRET: 's', GITHUB_CLIENT_ID: 'h', GITHUB_CLIENT_SECRET_ID: 'licensing/github' })).toEqual([
      'github',
      'google',
    ]);
    // An empty variable is an unset one.
    expect(configured({ GOOGLE_CLIENT_ID: ' ', GOOGLE_CLIENT_SECRET: 's' })).toEqual([]);
  });

  it("default to the providers' own endpoints (DECISIONS §11) and take others", () => {
    expect(config({}).oauth).toEqual({
      google: {
        endpoints: {
          authUrl: 'https://accounts.google.com/o/oauth2/v2/auth',
          tokenUrl: 'https://oauth2.googleapis.com/token',
          userinfoUrl: 'https://openidconnect.googleapis.com/v1/userinfo',
        },
      },
      github: {
        endpoints: {
          authUrl: 'https://github.com/login/oauth/authorize',
          tokenUrl: 'https://github.com/login/oauth/access_token',
          apiUrl: 'https://api.github.com',
        },
      },
    });
    expect(config({ GITHUB_API_URL: 'http://127.0.0.1:9999/' }).oauth.github.endpoints.apiUrl).toBe('http://127.0.0.1:9999');
    expect(() => config({ GOOGLE_TOKEN_URL: 'ftp://example.com/token' })).toThrow(/GOOGLE_TOKEN_URL/);
    expect(() => config({ GITHUB_AUTH_URL: 'not a url' })).toThrow(/GITHUB_AUTH_URL/);
  });

  it('send the browser to the configured consent page, keeping its own query', () => {
    const { google } = createOAuthProviders(
      config({ GOOGLE_CLIENT_ID: 'g', GOOGLE_CLIENT_SECRET: 's', GOOGLE_AUTH_URL: 'https://accounts.example/auth?hd=example.com' }),
    );
    const url = new URL(google!.authorizationUrl({ redirectUri: 'https://api.example/cb', state: 's'.repeat(43), codeChallenge: 'c'.repeat(43) }));
    expect(url.origin + url.pathname).toBe('https://accounts.example/auth');
    expect(url.searchParams.get('hd')).toBe('example.com');
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
  });
});
