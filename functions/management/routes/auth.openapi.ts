import * as z from 'zod/mini';
import { ALREADY_VERIFIED, INVALID_TOKEN, type Permission, PERMISSIONS, type PublicUser, ROLES, type TeamUser as TeamUserView } from '../../../shared/identity/index.js';
import { assertDescribes, defineOperations, EX, exampleUser, idOf, named, timestamp } from '../../../shared/platform/openapi/index.js';
import { RATE_LIMITS } from '../../../shared/platform/rate-limits/index.js';
import { REGISTRATION_MODES } from '../../../shared/platform/index.js';
import { SESSION_REQUIRED } from '../authenticate.js';

export const User = named(
  'User',
  z.object({
    id: idOf('usr'),
    email: z.string(),
    name: z.string(),
    role: z.string(),
    avatarUrl: z.nullable(z.string()),
    createdAt: timestamp,
    providers: z.array(z.string()),
    hasPassword: z.boolean(),
    emailVerified: z.boolean(),
  }),
  'A developer account (a tenant). `providers`: the sign-in providers linked to it; `hasPassword`: false for an account made by OAuth until a password is set; ' +
    '`emailVerified`: its address was confirmed by the link e-mailed at registration, or by a Google or GitHub sign-in.',
);
assertDescribes<typeof User, PublicUser>(true);

const UserEnvelope = named('UserEnvelope', z.object({ user: User }));

const roleEnum = z.enum(ROLES);
export const TeamMembership = named(
  'TeamMembership',
  z.object({ tenantId: idOf('usr'), name: z.string(), role: roleEnum }),
  'A tenant the user belongs to: their own (`owner`), or a team they joined, called by its owner\'s name.',
);
export const TeamUser = named(
  'TeamUser',
  z.object({
    ...User.def.shape,
    tenantId: idOf('usr'),
    tenantRole: roleEnum,
    permissions: z.array(z.enum(Object.keys(PERMISSIONS) as [Permission, ...Permission[]])),
    teams: z.array(TeamMembership),
  }),
  'The signed-in user with where the session acts (DECISIONS §17): `tenantId` and the user\'s role there (`tenantRole`; `role` keeps ' +
    'its meaning, the kind of account), what that role permits there (`permissions`, docs/api.md\'s matrix), and `teams`, every tenant the user belongs to.',
);
assertDescribes<typeof TeamUser, TeamUserView>(true);
const TeamUserEnvelope = named('TeamUserEnvelope', z.object({ user: TeamUser }));
const exampleTeamUser = { ...exampleUser, tenantId: EX.userId, tenantRole: 'owner', permissions: ['account', 'read'], teams: [{ tenantId: EX.userId, name: 'Vendor', role: 'owner' }] };
const sessionCookieHeader = {
  'set-cookie': { description: "`session=<token>; HttpOnly; Path=/; Max-Age=2592000`, with `Secure; SameSite=None` in AWS (`SameSite=Lax` over the local runtime's plain HTTP, where browsers drop a `None` cookie)", required: true },
};

const registrationClosed = 'Registration is closed on this deployment';
/** A sign-in's cookies: the session, and the browser's `device` (DECISIONS §20). */
const signInCookiesHeader = {
  'set-cookie': {
    description:
      `${sessionCookieHeader['set-cookie'].description}; and \`device=<token>; HttpOnly; Path=/api; Max-Age=31536000\` (the same browser keeps its ` +
      'token, Secure and SameSite as the session\'s): a browser known to the account, which failed logins from other addresses never lock out',
    required: true,
  },
};

export const authOperations = defineOperations({
  'GET /api/auth/registration': {
    summary: 'Who may register on this deployment',
    description:
      '`open`: anyone. `invite`: only the deployment\'s first account and addresses holding a pending invitation (DECISIONS §20); the dashboard ' +
      'hides its sign-up form then. Set by `REGISTRATION` (`npm start`, default `open`) or `-c registration=…` (`cdk deploy`, default `invite`).',
    security: [[]],
    responses: {
      200: {
        description: 'The setting',
        body: named('Registration', z.object({ registration: z.enum(REGISTRATION_MODES) })),
        examples: { closed: { registration: 'invite' }, open: { registration: 'open' } },
      },
    },
  },
  'POST /api/auth/register': {
    summary: 'Register a developer account',
    description:
      'Creates the account and starts a session (sets the `session` cookie). `name` defaults to the part of the e-mail before `@`; ' +
      'e-mails are compared lower-cased. A foreign `Origin` is refused when a browser sends one. Also e-mails a link that verifies the ' +
      'address (`GET /api/auth/verify-email`); until it is opened the account has `emailVerified: false`, and a Google or GitHub sign-in ' +
      'with the address takes the account over (its password removed, its sessions and API keys ended). Under `registration=invite` only the ' +
      "deployment's first account and an address holding a pending invitation register; anyone else is 403, before a taken address would be 409.",
    security: [[]],
    requestBody: { examples: { register: { email: EX.vendorEmail, password: 'correct horse battery', name: 'Vendor' } } },
    responses: {
      201: { description: 'Registered and signed in', body: UserEnvelope, headers: signInCookiesHeader, examples: { registered: { user: { ...exampleUser, emailVerified: false } } } },
    },
    errors: { 400: ['password: must be at least 8 characters', 'email: must be a valid e-mail address'], 403: ['Origin not allowed', registrationClosed], 409: ['Email already registered'] },
    rateLimits: [RATE_LIMITS.registerAddress],
  },
  'POST /api/auth/login': {
    summary: 'Sign in',
    description:
      'Starts a session (sets the `session` cookie). A wrong password and an unknown e-mail answer alike. While the account\'s login bucket is empty, a ' +
      'browser that signed in to it before (its `device` cookie) has a bucket of its own, which failures from elsewhere do not spend.',
    security: [[]],
    requestBody: { examples: { login: { email: EX.vendorEmail, password: 'correct horse battery' } } },
    responses: { 200: { description: 'Signed in', body: UserEnvelope, headers: signInCookiesHeader, examples: { signedIn: { user: exampleUser } } } },
    errors: { 401: ['Invalid email or password'], 403: ['Origin not allowed'] },
    rateLimits: [RATE_LIMITS.loginAddress, RATE_LIMITS.loginEmail, RATE_LIMITS.loginDevice, RATE_LIMITS.loginEmailAddress, RATE_LIMITS.loginEmailOverflow],
  },
  'GET /api/auth/verify-email': {
    summary: "Verify the account's e-mail address",
    description:
      'The link of the verification e-mail (valid 24 hours, once): marks the address verified and sends the browser to ' +
      '`DASHBOARD_URL?verified=1`; a bad, used or expired token to `DASHBOARD_URL?error=invalid_token`. Without `DASHBOARD_URL`: ' +
      '200 `{verified: true}`, or 400.',
    security: [[]],
    queryExamples: { token: 'k2n4q6s8u2w4y6a2c4e6g2i4k6m2o4q6' },
    responses: {
      200: { description: 'Verified (no dashboard configured)', body: named('Verified', z.object({ verified: z.literal(true) })), examples: { verified: { verified: true } } },
      302: { description: 'To the dashboard: `?verified=1`, or `?error=invalid_token`', headers: { location: { description: '`DASHBOARD_URL` with `?verified=1` or `?error=invalid_token`', required: true } } },
    },
    errors: { 400: [INVALID_TOKEN] },
  },
  'POST /api/auth/verify-email/resend': {
    summary: 'Send the verification e-mail again',
    description:
      'A fresh link to the account\'s address; earlier links keep working until used or expired. A signed-in session only: an API key is refused (403).',
    responses: { 202: { description: 'Queued', body: named('Sent', z.object({ sent: z.literal(true) })), examples: { sent: { sent: true } } } },
    errors: { 400: [ALREADY_VERIFIED] },
    rateLimits: [RATE_LIMITS.verificationResend],
  },
  'POST /api/auth/logout': {
    summary: 'Sign out',
    description:
      'Always clears the cookie, and ends the session when there is one. With a cookie it needs an allowed `Origin`. ' +
      'An API key is refused (403), as on every route of the account\'s own credentials.',
    security: [[], ['sessionCookie']],
    responses: {
      204: { description: 'Signed out; the cookie is cleared', headers: { 'set-cookie': { description: '`session=; Max-Age=0`', required: true } } },
    },
    errors: { 403: ['Origin not allowed', SESSION_REQUIRED] },
  },
  'GET /api/auth/me': {
    summary: 'The signed-in developer',
    responses: { 200: { description: 'The account', body: TeamUserEnvelope, examples: { me: { user: exampleTeamUser } } } },
    errors: { 404: ['User not found'] },
  },
  'POST /api/auth/switch-tenant': {
    summary: 'Act in another tenant',
    description:
      'Moves the session to a tenant the user belongs to (`user.teams`); every later request acts there with the user\'s role in it. ' +
      'A tenant the user is not a member of is 404. Removed from that team later, the session acts in the user\'s own tenant again. A signed-in session only.',
    requestBody: { examples: { switch: { tenantId: EX.userId } } },
    responses: { 200: { description: 'The user, acting in that tenant', body: TeamUserEnvelope, examples: { switched: { user: exampleTeamUser } } } },
    errors: { 403: [SESSION_REQUIRED], 404: ['Team not found'] },
  },
  'PUT /api/auth/me': {
    summary: 'Update the profile',
    description: '`avatarUrl: null` clears it. A signed-in session only: an API key is refused (403).',
    requestBody: { examples: { rename: { name: 'Acme Software', avatarUrl: 'https://cdn.example.com/avatar.png' } } },
    responses: {
      200: { description: 'The updated account', body: UserEnvelope, examples: { updated: { user: { ...exampleUser, name: 'Acme Software', avatarUrl: 'https://cdn.example.com/avatar.png' } } } },
    },
    errors: { 404: ['User not found'] },
  },
  'POST /api/auth/change-password': {
    summary: 'Change the password',
    description: 'Every other session of the user ends; the calling one stays. A signed-in session only: an API key is refused (403).',
    requestBody: { examples: { change: { currentPassword: 'correct horse battery', newPassword: 'battery staple horse' } } },
    responses: { 200: { description: 'Changed', body: named('Success', z.object({ success: z.literal(true) })), examples: { changed: { success: true } } } },
    errors: { 400: ['Current password is incorrect', 'newPassword: must be at least 8 characters'], 409: ['Password was changed concurrently; retry'] },
  },
});
