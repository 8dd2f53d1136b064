import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../api/client';
import { serverFieldErrors } from '../../api/errors';
import type { Invitation, Member } from '../../api/types';
import { useCan } from '../../auth/permissions';
import { useMe } from '../../auth/session';
import { confirmColumn } from '../../components/confirm-column';
import type { Column } from '../../components/DataTable';
import { RequireVerifiedAddress } from '../../auth/VerifyFirst';
import { ErrorBanner } from '../../components/ErrorBanner';
import { Field } from '../../components/Field';
import { check, fieldError, problemsOf, useForm } from '../../components/form';
import { formatDate } from '../../components/format';
import { SavedStatus } from '../../components/FormFooter';
import { QueryTable } from '../../components/QueryTable';
import { ROLE_ABILITIES, ROLES, roleName, type AssignableRole } from './roles';

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
  /** Another member than the owner and oneself, for a role that manages the team. */
  const editable = (member: Member) => manage && member.role !== 'owner' && member.userId !== me.data?.id;
  const memberColumns: (Column<Member> | false)[] = [
    { header: 'Name', cell: (member) => member.name },
    { header: 'E-mail', cell: (member) => member.email },
    {
      header: 'Role',
      cell: (member) =>
        editable(member) ? (
          <select
            aria-label={`Role of ${member.email}`}
            aria-describedby="role-abilities"
            value={member.role}
            onChange={(e) => changeRole.mutate({ userId: member.userId, role: e.target.value as AssignableRole })}
          >
            {ROLES.map((role) => (
              <option key={role} value={role}>
                {roleName(role)}
              </option>
            ))}
          </select>
        ) : (
          roleName(member.role)
        ),
    },
    { header: 'Joined', cell: (member) => formatDate(member.joinedAt) },
    manage &&
      confirmColumn({
        label: 'Remove',
        title: (member) => `Remove ${member.email} from the team?`,
        consequence: 'They lose access at once.',
        when: editable,
        onConfirm: (member) => remove.mutate(member.userId),
      }),
  ];
  const invitationColumns: (Column<Invitation> | false)[] = [
    { header: 'E-mail', cell: (invitation) => invitation.email },
    { header: 'Role', cell: (invitation) => roleName(invitation.role) },
    { header: 'Expires', cell: (invitation) => formatDate(invitation.expiresAt) },
    manage && confirmColumn({ label: 'Withdraw', title: (invitation) => `Withdraw the invitation to ${invitation.email}?`, onConfirm: (invitation) => withdraw.mutate(invitation.id) }),
  ];
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
              <Field label="Role" hint={ROLE_ABILITIES[form.values.role]}>
                <select value={form.values.role} onChange={(e) => form.set('role')(e.target.value as AssignableRole)}>
                  {ROLES.map((role) => (
                    <option key={role} value={role}>
                      {roleName(role)}
                    </option>
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
        <QueryTable query={members} loading="Loading the team…" label="Members" columns={memberColumns} rowKey={(member) => member.userId} />
        <SavedStatus saved={changeRole.isSuccess && !changeRole.isPending}>Role saved.</SavedStatus>
      </section>
      <section className="card" aria-labelledby="roles-heading">
        <h2 id="roles-heading">What each role may do</h2>
        <dl className="facts" id="role-abilities">
          <dt>Owner</dt>
          <dd>Everything, the account itself included; there is one owner.</dd>
          {ROLES.map((role) => (
            <div key={role} className="facts-row">
              <dt>{roleName(role)}</dt>
              <dd>{ROLE_ABILITIES[role]}</dd>
            </div>
          ))}
        </dl>
      </section>
      <section className="card" aria-labelledby="invitations-heading">
        <h2 id="invitations-heading">Open invitations</h2>
        <QueryTable query={invitations} loading="Loading invitations…" label="Open invitations" columns={invitationColumns} empty={<p>No open invitations.</p>} />
      </section>
    </>
  );
}
