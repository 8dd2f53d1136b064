import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { api, unwrap } from '../api/client';
import { useMe } from '../auth/session';

/** Which tenant the session acts in, for a user in more than one: switching reloads everything for the new tenant. */
export function TenantSwitcher() {
  const me = useMe();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const switchTo = useMutation({
    mutationFn: (tenantId: string) => unwrap(api.POST('/api/auth/switch-tenant', { body: { tenantId } })),
    onSuccess: () => {
      queryClient.clear();
      void navigate('/products');
    },
  });
  const teams = me.data?.teams ?? [];
  if (teams.length < 2) return null;
  return (
    <label className="tenant-switcher">
      <span className="visually-hidden">Team</span>
      <select value={me.data?.tenantId} onChange={(e) => switchTo.mutate(e.target.value)} disabled={switchTo.isPending}>
        {teams.map((team) => (
          <option key={team.tenantId} value={team.tenantId}>
            {team.name} ({team.role})
          </option>
        ))}
      </select>
    </label>
  );
}
