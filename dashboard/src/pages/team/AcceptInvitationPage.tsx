import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate, useSearchParams } from 'react-router';
import { api, unwrap } from '../../api/client';
import { ErrorBanner } from '../../components/ErrorBanner';

/** Where an invitation's link lands (`/accept-invitation?token=…`): join the team, then act in it. */
export function AcceptInvitationPage() {
  const [search] = useSearchParams();
  const token = search.get('token') ?? '';
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const accept = useMutation({
    mutationFn: async () => {
      const team = await unwrap(api.POST('/api/team/invitations/{token}/accept', { params: { path: { token } } }));
      await unwrap(api.POST('/api/auth/switch-tenant', { body: { tenantId: team.tenantId } }));
      return team;
    },
    onSuccess: () => {
      queryClient.clear();
      void navigate('/products');
    },
  });
  return (
    <section className="card" aria-labelledby="accept-heading">
      <h1 id="accept-heading">Join a team</h1>
      <p>You were invited to a team. Joining lets you work in its account with the role it gave you.</p>
      <button type="button" className="button button-primary" onClick={() => accept.mutate()} disabled={accept.isPending || !token}>
        Accept the invitation
      </button>
      <ErrorBanner error={accept.error} />
    </section>
  );
}
