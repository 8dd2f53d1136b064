import { OAUTH_FAILURES, OAUTH_PROVIDERS } from '../../../shared/identity/index.js';
import * as z from 'zod/mini';
import { defineOperations, named, type OperationDocs } from '../../../shared/platform/openapi/index.js';
import { RATE_LIMITS } from '../../../shared/platform/rate-limits/index.js';

const failureCodes = Object.entries(OAUTH_FAILURES)
  .map(([code, message]) => `\`${code}\` (${message})`)
  .join(', ');

/** Sign-in with Google and GitHub (DECISIONS §11): a start route and a callback per provider. */
export const oauthOperations = defineOperations({
  'GET /api/oauth/providers': {
    summary: 'List the configured sign-in providers',
    description:
      'The providers whose client id and secret the service has (`GOOGLE_CLIENT_ID`/`GOOGLE_CLIENT_SECRET`, `GITHUB_CLIENT_ID`/' +
      '`GITHUB_CLIENT_SECRET`), in that order: the others answer their start route with 404. The sign-in page shows a button for each.',
    security: [[]],
    responses: {
      200: {
        description: 'The configured providers',
        body: named('OAuthProviderList', z.object({ providers: z.array(z.enum(OAUTH_PROVIDERS)) }), 'Sign-in providers that are configured.'),
        examples: { both: { providers: ['google', 'github'] }, none: { providers: [] } },
      },
    },
  },
  ...Object.fromEntries(
    OAUTH_PROVIDERS.flatMap((provider) => [
      [
        `GET /api/oauth/${provider}`,
        {
          summary: `Sign in with ${provider === 'google' ? 'Google' : 'GitHub'}`,
          description:
            'Starts the authorization-code flow' + (provider === 'google' ? ' (with PKCE)' : '') + ': a one-time state kept 10 minutes and bound to ' +
            'this browser by the `oauth_state` cookie, then 302 to the provider.',
          security: [[]],
          responses: {
            302: {
              description: "To the provider's consent page",
              headers: { location: { description: 'The authorization URL', required: true }, 'set-cookie': { description: '`oauth_state=…; HttpOnly; Path=/api/oauth; SameSite=Lax; Max-Age=600`', required: true } },
            },
          },
          errors: { 404: [`${provider} login is not configured`] },
          rateLimits: [RATE_LIMITS.oauthStart],
        },
      ],
      [
        `GET /api/oauth/${provider}/callback`,
        {
          summary: `Where ${provider === 'google' ? 'Google' : 'GitHub'} sends the browser back`,
          description:
            'The provider adds `code` and `state` to the query (or `error`, e.g. `access_denied`). Checks the state (once, same browser), exchanges the code and signs in: the user linked to the provider account, else the user ' +
            'with its verified e-mail (linking it), else a new user. Success: 302 to `DASHBOARD_URL` with the session cookie. Failure: 302 ' +
            `to \`DASHBOARD_URL?error=<code>\` and no session; codes: ${failureCodes}. Without \`DASHBOARD_URL\`: 200 \`{user}\`, or 400 \`{error, code}\` ` +
            '(403 for `registration_closed`: a first sign-in on a deployment whose `registration=invite` does not admit the address, DECISIONS §20). ' +
            'Success also sets the `device` cookie of a sign-in (`POST /api/auth/login`).',
          security: [[]],
          responses: {
            302: {
              description: 'To the dashboard: signed in, or with `?error=<code>`',
              headers: { location: { description: '`DASHBOARD_URL`, with `?error=<code>` on failure', required: true }, 'set-cookie': { description: 'The `session` and `device` cookies on success; the `oauth_state` cookie cleared' } },
            },
          },
          errors: {
            400: Object.entries(OAUTH_FAILURES).flatMap(([code, message]) => (code === 'registration_closed' ? [] : [message])),
            403: [OAUTH_FAILURES.registration_closed],
            404: [`${provider} login is not configured`],
          },
        },
      ],
    ]),
  ) as OperationDocs,
});
