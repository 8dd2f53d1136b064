import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../api/client';
import { serverFieldErrors } from '../../api/errors';
import { ME_KEY } from '../../auth/session';
import { ErrorBanner } from '../../components/ErrorBanner';
import { Field } from '../../components/Field';
import { SavedStatus } from '../../components/FormFooter';
import { check, fieldError, problemsOf, useForm } from '../../components/form';

/** Change the password; an account made by Google or GitHub sign-in sets its first one without a current one. */
export function PasswordSection({ hasPassword }: { hasPassword: boolean }) {
  const queryClient = useQueryClient();
  const change = useMutation({
    mutationFn: (body: { currentPassword?: string; newPassword: string }) => unwrap(api.POST('/api/auth/change-password', { body })),
    onSuccess: () => {
      form.setValues({ currentPassword: '', newPassword: '' });
      void queryClient.invalidateQueries({ queryKey: ME_KEY });
    },
  });
  const form = useForm({
    initial: { currentPassword: '', newPassword: '' },
    validate: (values) =>
      problemsOf({
        currentPassword: hasPassword ? check.required(values.currentPassword, 'Current password') : undefined,
        newPassword: values.newPassword.length >= 8 ? undefined : 'New password must be at least 8 characters',
      }),
    onSubmit: (values) => change.mutate({ ...(hasPassword && { currentPassword: values.currentPassword }), newPassword: values.newPassword }),
  });
  const server = serverFieldErrors(change.error);
  return (
    <section className="card" aria-labelledby="password-heading">
      <h2 id="password-heading">{hasPassword ? 'Change password' : 'Set a password'}</h2>
      <form onSubmit={form.handleSubmit} noValidate className="grid-form">
        {hasPassword && (
          <Field label="Current password" error={fieldError(form.problems, server, 'currentPassword')}>
            <input type="password" autoComplete="current-password" value={form.values.currentPassword} onChange={(e) => form.set('currentPassword')(e.target.value)} />
          </Field>
        )}
        <Field label="New password" hint="At least 8 characters; your other sessions end" error={fieldError(form.problems, server, 'newPassword')}>
          <input type="password" autoComplete="new-password" value={form.values.newPassword} onChange={(e) => form.set('newPassword')(e.target.value)} />
        </Field>
        <ErrorBanner error={change.error} />
        <div className="actions">
          <button type="submit" className="button button-primary" disabled={change.isPending}>
            {hasPassword ? 'Change password' : 'Set password'}
          </button>
          <SavedStatus saved={change.isSuccess}>Password saved.</SavedStatus>
        </div>
      </form>
    </section>
  );
}
