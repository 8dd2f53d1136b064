import { useSearchParams } from 'react-router';
import { ErrorBanner } from '../components/ErrorBanner';
import { useMe } from './session';
import { useResendVerification } from './VerifyFirst';

/**
 * Where the account's address stands (DECISIONS §13): how a verification link went when the browser lands from it
 * (`?verified=1`, `?error=invalid_token`), and, while the address is not verified, a notice with a button that sends the
 * link again. Its copy says what confirming gives, calmly: until then, a Google or GitHub sign-in that proves the address
 * replaces the account's password (the takeover rule), and the verified-only actions wait.
 */
export function VerificationNotice() {
  const me = useMe();
  const [search] = useSearchParams();
  const resend = useResendVerification();
  const user = me.data;
  if (!user) return null;
  const landed = search.get('verified') === '1' ? 'verified' : search.get('error') === 'invalid_token' ? 'invalid' : undefined;

  if (user.emailVerified) {
    if (!landed) return null;
    return (
      <div className="banner banner-success" role="status">
        {landed === 'verified' ? `Thank you: ${user.email} is verified.` : `That link was already used: ${user.email} is verified.`}
      </div>
    );
  }
  return (
    <section className="banner verification-notice" aria-label="E-mail verification">
      {landed === 'invalid' && (
        <p className="banner banner-error" role="alert">
          That verification link is invalid or has expired.
        </p>
      )}
      <p>
        Confirm your e-mail address: we sent a link to <strong>{user.email}</strong>.
      </p>
      {resend.isSuccess ? (
        <p role="status">A new link is on its way to {user.email}.</p>
      ) : (
        <button type="button" className="button button-small" onClick={() => resend.mutate()} disabled={resend.isPending}>
          {resend.isPending ? 'Sending…' : 'Send the link again'}
        </button>
      )}
      <p className="small verification-why">
        Confirming shows the address is yours. It lets you invite your team, add webhooks, connect payments and move data in or out, and
        it keeps your password with this account: until then, a Google or GitHub sign-in that proves this address would replace it.
      </p>
      <ErrorBanner error={resend.error} />
    </section>
  );
}
