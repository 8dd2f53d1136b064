import { useMutation } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { api, unwrap } from '../api/client';
import { errorMessage } from '../api/errors';
import { useMe } from './session';

/** Sends the verification link again (`POST /api/auth/verify-email/resend`). */
export const useResendVerification = () => useMutation({ mutationFn: () => unwrap(api.POST('/api/auth/verify-email/resend')) });

/**
 * What a feature that reaches beyond the account (DECISIONS §20: invitations, webhooks, the payment provider, imports
 * and exports) says while the account's address is not verified, in place of its form: why it waits, and the button
 * that sends the link again. The service would refuse the form with 403 `Verify your e-mail address first`.
 */
export function VerifyFirstNotice({ to }: { to: string }) {
  const me = useMe();
  const resend = useResendVerification();
  const email = me.data?.email;
  return (
    <div className="banner banner-warning verify-first" role="note">
      <p>
        Confirm your e-mail address to {to}: open the link we sent to <strong>{email}</strong>. Until it is confirmed, nothing of this account goes
        to other people, addresses or payment accounts.
      </p>
      {resend.isSuccess ? (
        <p role="status">A new link is on its way to {email}.</p>
      ) : (
        <button type="button" className="button button-small" onClick={() => resend.mutate()} disabled={resend.isPending}>
          {resend.isPending ? 'Sending…' : 'Send the link again'}
        </button>
      )}
      {resend.error && (
        <p className="banner banner-error" role="alert">
          {errorMessage(resend.error)}
        </p>
      )}
    </div>
  );
}

/** Whether the signed-in user's address is verified (true while it is not known yet: the service decides anyway). */
export function useVerifiedAddress(): boolean {
  const me = useMe();
  return !me.data || me.data.emailVerified;
}

/** `children` once the signed-in user's address is verified; the notice (`to` do what) in their place until then. */
export function RequireVerifiedAddress({ to, children }: { to: string; children: ReactNode }) {
  return useVerifiedAddress() ? <>{children}</> : <VerifyFirstNotice to={to} />;
}
