import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { api, unwrap } from '../../api/client';
import { ErrorBanner } from '../../components/ErrorBanner';
import type { AuditEntry } from '../../api/types';
import type { Column } from '../../components/DataTable';
import { formatDate } from '../../components/format';
import { useListFilters } from '../../components/list-filters';
import { Filters, SearchFilter } from '../../components/ListHeader';
import { QueryTable } from '../../components/QueryTable';
import { AuditSentence, type People } from './AuditSentence';

/** The members' names and the API keys' names, for the sentences' actors (owners and admins, who read the log, may read both). */
function usePeople(): People {
  const members = useQuery({ queryKey: ['team', 'members'], queryFn: () => unwrap(api.GET('/api/team/members')) });
  const apiKeys = useQuery({ queryKey: ['api-keys'], queryFn: () => unwrap(api.GET('/api/api-keys')) });
  return useMemo(
    () => ({
      members: new Map(members.data?.items.map((member) => [member.userId, member.name]) ?? []),
      apiKeys: new Map(apiKeys.data?.items.map((key) => [key.id, key.name]) ?? []),
    }),
    [members.data, apiKeys.data],
  );
}

function columns(people: People): Column<AuditEntry>[] {
  return [
    {
      header: 'When',
      className: 'audit-when',
      cell: (entry) => (
        <>
          {formatDate(entry.at)}
          {entry.ip && <span className="muted small"> from {entry.ip}</span>}
        </>
      ),
    },
    { header: 'What happened', cell: (entry) => <AuditSentence entry={entry} people={people} /> },
  ];
}

/** Every change of the tenant, newest first, each as a sentence (who did what to which thing, from what to what); and the check of its hash chains. */
export function AuditLogPage() {
  const { page, filter, update } = useListFilters();
  const action = filter('action');
  const targetType = filter('target_type');
  const actorId = filter('actor_id');
  const entries = useQuery({
    queryKey: ['audit-log', { page, action, targetType, actorId }],
    queryFn: () =>
      unwrap(
        api.GET('/api/audit-log', {
          params: { query: { page: String(page), ...(action && { action }), ...(targetType && { target_type: targetType }), ...(actorId && { actor_id: actorId }) } },
        }),
      ),
    placeholderData: keepPreviousData,
  });
  const people = usePeople();
  const verify = useMutation({ mutationFn: () => unwrap(api.GET('/api/audit-log/verify')) });
  return (
    <>
      <div className="page-head">
        <h1>Audit log</h1>
        <button type="button" className="button" onClick={() => verify.mutate()} disabled={verify.isPending}>
          Verify the chain
        </button>
      </div>
      {verify.data && (
        <p className={`banner ${verify.data.ok ? 'banner-success' : 'banner-error'}`} role="status">
          {verify.data.ok ? `Intact: ${verify.data.entries} entries check out.` : `Broken at entry ${verify.data.brokenAt ?? '(the newest, removed)'}.`}
        </p>
      )}
      <ErrorBanner error={verify.error} />
      <Filters>
        <SearchFilter label="Action" value={action} placeholder="license.update" onChange={(value) => update({ action: value })} />
        <SearchFilter label="Target type" value={targetType} placeholder="license" onChange={(value) => update({ target_type: value })} />
        <SearchFilter label="Actor id" value={actorId} onChange={(value) => update({ actor_id: value })} />
      </Filters>
      <QueryTable query={entries} loading="Loading the audit log…" label="Audit log" columns={columns(people)} empty={<p>No entries match.</p>} onPage={(next) => update({ page: String(next) })} />
    </>
  );
}
