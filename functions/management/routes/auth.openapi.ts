import * as z from 'zod/mini';
import type { PublicUser } from '../../../shared/accounts/users.js';
import { idOf, timestamp } from '../../../shared/openapi/common.js';
import { EX, exampleUser } from '../../../shared/openapi/examples.js';
import { assertDescribes, defineOperations, named } from '../../../shared/openapi/operation.js';
import { RATE_LIMITS } from '../../../shared/rate-limits/limits.js';
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
  }),
  'A developer account (a tenant). `providers`: the sign-in providers linked to it; `hasPassword`: false for an account made by OAuth until a password is set.',
);
assertDescribes<typeof User, PublicUser>(true);

const UserEnvelope = named('UserEnvelope', z.object({ user: User }));
const sessionCookieHeader = {
  'set-cookie': { description: "`session=<token>; HttpOnly; Path=/; Max-Age=2592000`, with `Secure; SameSite=None` in AWS (`SameSite=Lax` over the local runtime's plain HTTP, where browsers drop a `None` cookie)", required: true },
};

export const authOperations = defineOperations({
  'POST /api/auth/register': {
    summary: 'Register a developer account',
    description:
      'Creates the account and starts a session (sets the `session` cookie). `name` defaults to the part of the e-mail before `@`; ' +
      'e-mails are compared lower-cased. A foreign `Origin` is refused when a browser sends one.',
    security: [[]],
    requestBody: { examples: { register: { email: EX.vendorEmail, password: 'correct horse battery', name: 'Vendor' } } },
    responses: { 201: { description: 'Registered and signed in', body: UserEnvelope, headers: sessionCookieHeader, examples: { registered: { user: exampleUser } } } },
    errors: { 400: ['password: must be at least 8 characters', 'email: must be a valid e-mail address'], 403: ['Origin not allowed'], 409: ['Email already registered'] },
    rateLimits: [RATE_LIMITS.registerAddress],
  },
  'POST /api/auth/login': {
    summary: 'Sign in',
    description: 'Starts a session (sets the `session` cookie). A wrong password and an unknown e-mail answer alike.',
    security: [[]],
    requestBody: { examples: { login: { email: EX.vendorEmail, password: 'correct horse battery' } } },
    responses: { 200: { description: 'Signed in', body: UserEnvelope, headers: sessionCookieHeader, examples: { signedIn: { user: exampleUser } } } },
    errors: { 401: ['Invalid email or password'], 403: ['Origin not allowed'] },
    rateLimits: [RATE_LIMITS.loginAddress, RATE_LIMITS.loginEmail, RATE_LIMITS.loginEmailAddress, RATE_LIMITS.loginEmailOverflow],
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
    responses: { 200: { description: 'The account', body: UserEnvelope, examples: { me: { user: exampleUser } } } },
    errors: { 404: ['User not found'] },
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
