import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { api, unwrap } from '../../api/client';
import { serverFieldErrors } from '../../api/errors';
import { cameFromInvitation, keepingNext, useRegistration } from '../../auth/registration';
import { afterSignIn, ME_KEY } from '../../auth/session';
import { ErrorBanner } from '../../components/ErrorBanner';
import { Field } from '../../components/Field';
import { check, fieldError, problemsOf, useForm } from '../../components/form';
import { OAuthButtons } from './OAuthButtons';

/** The service's own minimum (SERVICE-SPEC §8). */
const MIN_PASSWORD = 8;

/**
 * Sign-up. Where registration is by invitation (DECISIONS §20) the form shows only to someone who came from an
 * invitation's link; anyone else is told how accounts are made here.
 */
export function RegisterPage() {
  const [search] = useSearchParams();
  const registration = useRegistration();
  if (registration.isPending) return <main id="main" className="auth-page" aria-busy="true" />;
  if (registration.data === 'invite' && !cameFromInvitation(search)) return <ByInvitationOnly />;
  return <RegisterForm />;
}

function ByInvitationOnly() {
  return (
    <main id="main" className="auth-page">
      <h1>Accounts are by invitation</h1>
      <p>This service makes accounts only for people its team invites. If you were invited, open the link in the invitation e-mail: it brings you back here to create your account with the invited address.</p>
      <p>
        Already registered? <Link to="/sign-in">Sign in</Link>
      </p>
    </main>
  );
}

function RegisterForm() {
  const [search] = useSearchParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const register = useMutation({
    mutationFn: (body: { email: string; password: string; name?: string }) => unwrap(api.POST('/api/auth/register', { body })),
    onSuccess: () => {
      // The session's user as `GET /api/auth/me` gives it, with the role and permissions in its tenant: read afresh.
      queryClient.removeQueries({ queryKey: ME_KEY });
      void navigate(search.get('next') ? afterSignIn(search) : '/products', { replace: true });
    },
  });
  const form = useForm({
    initial: { name: '', email: '', password: '' },
    validate: (values) =>
      problemsOf({
        email: check.email(values.email),
        password: values.password.length >= MIN_PASSWORD ? undefined : `Password must be at least ${MIN_PASSWORD} characters`,
      }),
    onSubmit: (values) => register.mutate({ email: values.email.trim(), password: values.password, ...(values.name.trim() && { name: values.name.trim() }) }),
  });
  const server = serverFieldErrors(register.error);
  return (
    <main id="main" className="auth-page">
      <h1>Create your account</h1>
      <form onSubmit={form.handleSubmit} noValidate className="stack">
        <Field label="Name" hint="Optional: shown to your buyers in license e-mails" error={fieldError(form.problems, server, 'name')}>
          <input autoComplete="name" value={form.values.name} onChange={(e) => form.set('name')(e.target.value)} />
        </Field>
        <Field label="E-mail" error={fieldError(form.problems, server, 'email')}>
          <input type="email" autoComplete="email" value={form.values.email} onChange={(e) => form.set('email')(e.target.value)} />
        </Field>
        <Field label="Password" hint={`At least ${MIN_PASSWORD} characters`} error={fieldError(form.problems, server, 'password')}>
          <input type="password" autoComplete="new-password" value={form.values.password} onChange={(e) => form.set('password')(e.target.value)} />
        </Field>
        <ErrorBanner error={register.error} />
        <button type="submit" className="button button-primary button-wide" disabled={register.isPending}>
          {register.isPending ? 'Creating…' : 'Create account'}
        </button>
      </form>
      <OAuthButtons />
      <p>
        Already registered? <Link to={keepingNext('/sign-in', search)}>Sign in</Link>
      </p>
    </main>
  );
}
