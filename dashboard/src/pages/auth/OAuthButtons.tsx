import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api, unwrap } from '../../api/client';
import { ErrorBanner } from '../../components/ErrorBanner';

const PROVIDERS = [
  { id: 'google', label: 'Continue with Google' },
  { id: 'github', label: 'Continue with GitHub' },
] as const;

/**
 * Sign-in with Google or GitHub, a button for each provider this deployment has configured (`GET /api/oauth/providers`)
 * and nothing, not even the "or", when none is. The start route is asked first, so that a refusal (a rate limit)
 * shows here in words instead of as a bare JSON page.
 */
export function OAuthButtons() {
  const configured = useQuery({ queryKey: ['oauth-providers'], queryFn: () => unwrap(api.GET('/api/oauth/providers')), staleTime: Infinity });
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
  const offered = PROVIDERS.filter((provider) => configured.data?.providers.includes(provider.id));
  if (offered.length === 0) return null;
  return (
    <div className="oauth">
      <p className="divider">or</p>
      {offered.map((provider) => (
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
