import { useState } from 'react';
import { ErrorBanner } from '../../components/ErrorBanner';

const PROVIDERS = [
  { id: 'google', label: 'Continue with Google' },
  { id: 'github', label: 'Continue with GitHub' },
] as const;

/**
 * Sign-in with Google or GitHub. The service answers a provider that this deployment has not configured with
 * 404 `<provider> login is not configured`: asked first, so that message shows here instead of a bare JSON page.
 */
export function OAuthButtons() {
  const [error, setError] = useState<Error>();
  const start = async (provider: string) => {
    setError(undefined);
    const href = `/api/oauth/${provider}`;
    try {
      const response = await fetch(href, { redirect: 'manual' });
      if (response.type === 'opaqueredirect') return window.location.assign(href);
      const body = (await response.json().catch(() => ({}))) as { error?: string };
      setError(new Error(body.error ?? `${provider} sign-in failed (${response.status})`));
    } catch {
      setError(new Error('The service could not be reached. Check your connection and try again.'));
    }
  };
  return (
    <div className="oauth">
      {PROVIDERS.map((provider) => (
        <button key={provider.id} type="button" className="button button-wide" onClick={() => void start(provider.id)}>
          {provider.label}
        </button>
      ))}
      <ErrorBanner error={error} />
    </div>
  );
}

/** What the service's `?error=<code>` after a provider sign-in means (docs/api.md, sign-in with Google and GitHub). */
export const OAUTH_ERRORS: Record<string, string> = {
  access_denied: 'Sign-in was cancelled at the provider.',
  invalid_request: 'The provider sent back an incomplete answer. Please try again.',
  invalid_state: 'That sign-in expired or was started in another browser. Please try again.',
  provider_error: 'The provider could not confirm who you are. Please try again.',
  email_not_verified: 'Your account at the provider has no verified e-mail address.',
  registration_closed: 'Accounts on this service are by invitation, and this address has none: ask the team for an invitation.',
  temporarily_unavailable: 'The service is busy. Please try again in a moment.',
};
