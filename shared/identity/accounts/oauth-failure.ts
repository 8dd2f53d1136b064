/**
 * Why an OAuth sign-in did not sign anyone in: the `error` of the redirect to the dashboard (`?error=<code>`), or of
 * the 400 answer when no dashboard is configured. None of them writes a user or a session.
 */
export const OAUTH_FAILURES = {
  /** The user refused consent at the provider (`error=access_denied` on the callback). */
  access_denied: 'Sign-in was cancelled at the provider',
  /** The callback lacks its `state` or `code`, or repeats one. */
  invalid_request: 'The sign-in answer is incomplete; start again',
  /** The state is unknown, expired, already used, for the other provider, or was started in another browser. */
  invalid_state: 'This sign-in is unknown, expired, already used or was started in another browser; start again',
  /** The provider answered an error, a 4xx or 5xx, something unreadable, or not in time. */
  provider_error: 'The provider could not complete the sign-in; try again',
  /** A provider account not yet linked, without a verified e-mail address to sign in or sign up with. */
  email_not_verified: 'The provider has no verified e-mail address for this account',
  /** A first sign-in would make an account that the deployment's `registration=invite` does not admit (DECISIONS §20). */
  registration_closed: 'Registration is closed on this deployment',
  /** The service's storage was throttled or unreachable. */
  temporarily_unavailable: 'Sign-in is temporarily unavailable; try again',
} as const;

export type OAuthFailureCode = keyof typeof OAUTH_FAILURES;

export class OAuthFailure extends Error {
  constructor(
    readonly code: OAuthFailureCode,
    options?: { cause?: unknown },
  ) {
    super(OAUTH_FAILURES[code], options);
    this.name = 'OAuthFailure';
  }
}
