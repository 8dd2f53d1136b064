import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { api, unwrap } from '../../api/client';
import { serverFieldErrors } from '../../api/errors';
import { cameFromInvitation, keepingNext, useRegistration } from '../../auth/registration';
import { afterSignIn, ME_KEY } from '../../auth/session';
import { ErrorBanner } from '../../components/ErrorBanner';
import { Field } from '../../components/Field';
import { check, fieldError, problemsOf, useForm } from '../../components/form';
import { OAUTH_ERRORS, OAuthButtons } from './OAuthButtons';

export function SignInPage() {
  const [search] = useSearchParams();
  const registration = useRegistration();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const signIn = useMutation({
    mutationFn: (body: { email: string; password: string }) => unwrap(api.POST('/api/auth/login', { body })),
    onSuccess: () => {
      // The session's user as `GET /api/auth/me` gives it, with the role and permissions in its tenant: read afresh.
      queryClient.removeQueries({ queryKey: ME_KEY });
      void navigate(afterSignIn(search), { replace: true });
    },
  });
  const form = useForm({
    initial: { email: '', password: '' },
    validate: (values) => problemsOf({ email: check.email(values.email), password: check.required(values.password, 'Password') }),
    onSubmit: (values) => signIn.mutate({ email: values.email.trim(), password: values.password }),
  });
  const server = serverFieldErrors(signIn.error);
  const oauthError = search.get('error');
  return (
    <main id="main" className="auth-page">
      <h1>Sign in</h1>
      {oauthError && (
        <div className="banner banner-error" role="alert">
          {OAUTH_ERRORS[oauthError] ?? `Sign-in failed (${oauthError}).`}
        </div>
      )}
      <form onSubmit={form.handleSubmit} noValidate className="stack">
        <Field label="E-mail" error={fieldError(form.problems, server, 'email')}>
          <input type="email" autoComplete="email" value={form.values.email} onChange={(e) => form.set('email')(e.target.value)} />
        </Field>
        <Field label="Password" error={fieldError(form.problems, server, 'password')}>
          <input type="password" autoComplete="current-password" value={form.values.password} onChange={(e) => form.set('password')(e.target.value)} />
        </Field>
        <ErrorBanner error={signIn.error} />
        <button type="submit" className="button button-primary button-wide" disabled={signIn.isPending}>
          {signIn.isPending ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
      <OAuthButtons />
      {registration.data === 'invite' && !cameFromInvitation(search) ? (
        <p>No account yet? Accounts here are by invitation: open the link in your invitation e-mail.</p>
      ) : (
        <p>
          No account yet? <Link to={keepingNext('/register', search)}>Create one</Link>
        </p>
      )}
    </main>
  );
}
