import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../api/client';
import { serverFieldErrors } from '../../api/errors';
import type { TeamUser, User } from '../../api/types';
import { ME_KEY } from '../../auth/session';
import { FormFooter } from '../../components/FormFooter';
import { Field } from '../../components/Field';
import { check, fieldError, orNull, problemsOf, useForm } from '../../components/form';

export function ProfileSection({ user }: { user: User }) {
  const queryClient = useQueryClient();
  const save = useMutation({
    mutationFn: (body: { name: string; avatarUrl: string | null }) => unwrap(api.PUT('/api/auth/me', { body })),
    // The profile answer has no tenant fields (role, permissions, teams): keep those of the session's user.
    onSuccess: ({ user: updated }) => queryClient.setQueryData(ME_KEY, (current: TeamUser | undefined) => current && { ...current, ...updated }),
  });
  const form = useForm({
    initial: { name: user.name, avatarUrl: user.avatarUrl ?? '' },
    validate: (values) =>
      problemsOf({ name: check.required(values.name, 'Name'), avatarUrl: values.avatarUrl.trim() ? check.url(values.avatarUrl) : undefined }),
    onSubmit: (values) => save.mutate({ name: values.name.trim(), avatarUrl: orNull(values.avatarUrl) }),
  });
  const server = serverFieldErrors(save.error);
  return (
    <section className="card" aria-labelledby="profile-heading">
      <h2 id="profile-heading">Profile</h2>
      <p className="muted">
        {user.email}
        {user.providers.length > 0 && ` · signs in with ${user.providers.join(' and ')}`}
      </p>
      <form onSubmit={form.handleSubmit} noValidate className="grid-form">
        <Field label="Name" error={fieldError(form.problems, server, 'name')}>
          <input value={form.values.name} onChange={(e) => form.set('name')(e.target.value)} />
        </Field>
        <Field label="Avatar URL" error={fieldError(form.problems, server, 'avatarUrl')}>
          <input type="url" value={form.values.avatarUrl} onChange={(e) => form.set('avatarUrl')(e.target.value)} />
        </Field>
        <FormFooter error={save.error} pending={save.isPending} submitLabel="Save profile" saved={save.isSuccess} />
      </form>
    </section>
  );
}
