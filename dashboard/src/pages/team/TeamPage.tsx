import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../api/client';
import { serverFieldErrors } from '../../api/errors';
import { useCan } from '../../auth/permissions';
import { useMe } from '../../auth/session';
import { RequireVerifiedAddress } from '../../auth/VerifyFirst';
import { ConfirmButton } from '../../components/ConfirmButton';
import { ErrorBanner } from '../../components/ErrorBanner';
import { Field } from '../../components/Field';
import { check, fieldError, problemsOf, useForm } from '../../components/form';
import { formatDate } from '../../components/format';
import { QueryView } from '../../components/QueryView';
import { TableScroll } from '../../components/TableScroll';

const ROLES = ['admin', 'developer', 'support', 'viewer'] as const;
type AssignableRole = (typeof ROLES)[number];
const TEAM = ['team'] as const;

/** The tenant's members and open invitations; inviting, changing roles and removing only for a role that may. */
export function TeamPage() {
  const can = useCan();
  const me = useMe();
  const manage = can('team');
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: TEAM });
  const members = useQuery({ queryKey: [...TEAM, 'members'], queryFn: () => unwrap(api.GET('/api/team/members')) });
  const invitations = useQuery({ queryKey: [...TEAM, 'invitations'], queryFn: () => unwrap(api.GET('/api/team/invitations')) });
  const invite = useMutation({
    mutationFn: (body: { email: string; role: AssignableRole }) => unwrap(api.POST('/api/team/invitations', { body })),
    onSuccess: () => {
      form.setValues({ email: '', role: 'support' });
      void refresh();
    },
  });
  const changeRole = useMutation({
    mutationFn: ({ userId, role }: { userId: string; role: AssignableRole }) =>
      unwrap(api.PUT('/api/team/members/{userId}', { params: { path: { userId } }, body: { role } })),
    onSettled: refresh,
  });
  const remove = useMutation({
    mutationFn: (userId: string) => unwrap(api.DELETE('/api/team/members/{userId}', { params: { path: { userId } } })),
    onSettled: refresh,
  });
  const withdraw = useMutation({
    mutationFn: (id: string) => unwrap(api.DELETE('/api/team/invitations/{id}', { params: { path: { id } } })),
    onSettled: refresh,
  });
  const form = useForm({
    initial: { email: '', role: 'support' as AssignableRole },
    validate: (values) => problemsOf({ email: check.required(values.email, 'E-mail') }),
    onSubmit: (values) => invite.mutate({ email: values.email.trim(), role: values.role }),
  });
  const server = serverFieldErrors(invite.error);
  const actions = manage && (
    <th scope="col">
      <span className="visually-hidden">Actions</span>
    </th>
  );
  return (
    <>
      <div className="page-head">
        <h1>Team</h1>
      </div>
      {manage && (
        <section className="card" aria-labelledby="invite-heading">
          <h2 id="invite-heading">Invite someone</h2>
          <p className="muted">They get an e-mail with a link, valid for 7 days. Accepting needs an account with that address, verified.</p>
          {invite.data && (
            <p className="banner banner-success" role="status">
              Invitation sent to {invite.data.email}.
            </p>
          )}
          <RequireVerifiedAddress to="invite people">
            <form onSubmit={form.handleSubmit} noValidate className="inline-form">
              <Field label="E-mail" error={fieldError(form.problems, server, 'email')}>
                <input type="email" value={form.values.email} onChange={(e) => form.set('email')(e.target.value)} />
              </Field>
              <Field label="Role">
                <select value={form.values.role} onChange={(e) => form.set('role')(e.target.value as AssignableRole)}>
                  {ROLES.map((role) => (
                    <option key={role}>{role}</option>
                  ))}
                </select>
              </Field>
              <button type="submit" className="button button-primary" disabled={invite.isPending}>
                Send invitation
              </button>
            </form>
          </RequireVerifiedAddress>
        </section>
      )}
      <ErrorBanner error={invite.error ?? changeRole.error ?? remove.error ?? withdraw.error} />
      <section className="card" aria-labelledby="members-heading">
        <h2 id="members-heading">Members</h2>
        <QueryView query={members} loading="Loading the team…">
          {(data) => (
            <TableScroll label="Members">
              <table>
                <thead>
                  <tr>
                    <th scope="col">Name</th>
                    <th scope="col">E-mail</th>
                    <th scope="col">Role</th>
                    <th scope="col">Joined</th>
                    {actions}
                  </tr>
                </thead>
                <tbody>
                  {data.items.map((member) => {
                    const editable = manage && member.role !== 'owner' && member.userId !== me.data?.id;
                    return (
                      <tr key={member.userId}>
                        <td>{member.name}</td>
                        <td>{member.email}</td>
                        <td>
                          {editable ? (
                            <select
                              aria-label={`Role of ${member.email}`}
                              value={member.role}
                              onChange={(e) => changeRole.mutate({ userId: member.userId, role: e.target.value as AssignableRole })}
                            >
                              {ROLES.map((role) => (
                                <option key={role}>{role}</option>
                              ))}
                            </select>
                          ) : (
                            member.role
                          )}
                        </td>
                        <td>{formatDate(member.joinedAt)}</td>
                        {manage && (
                          <td>
                            {editable && (
                              <ConfirmButton label="Remove" title={`Remove ${member.email} from the team?`} onConfirm={() => remove.mutate(member.userId)}>
                                <p>They lose access at once.</p>
                              </ConfirmButton>
                            )}
                          </td>
                        )}
                      </tr>
                    );
                  })}
                </tbody>
              </table>
            </TableScroll>
          )}
        </QueryView>
      </section>
      <section className="card" aria-labelledby="invitations-heading">
        <h2 id="invitations-heading">Open invitations</h2>
        <QueryView query={invitations} loading="Loading invitations…" isEmpty={(data) => data.items.length === 0} empty={<p>No open invitations.</p>}>
          {(data) => (
            <TableScroll label="Open invitations">
              <table>
                <thead>
                  <tr>
                    <th scope="col">E-mail</th>
                    <th scope="col">Role</th>
                    <th scope="col">Expires</th>
                    {actions}
                  </tr>
                </thead>
                <tbody>
                  {data.items.map((invitation) => (
                    <tr key={invitation.id}>
                      <td>{invitation.email}</td>
                      <td>{invitation.role}</td>
                      <td>{formatDate(invitation.expiresAt)}</td>
                      {manage && (
                        <td>
                          <ConfirmButton label="Withdraw" title={`Withdraw the invitation to ${invitation.email}?`} onConfirm={() => withdraw.mutate(invitation.id)} />
                        </td>
                      )}
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableScroll>
          )}
        </QueryView>
      </section>
    </>
  );
}
