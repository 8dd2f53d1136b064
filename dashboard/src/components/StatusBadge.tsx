/** A status word, coloured by what it means for the vendor (good, paused, ended). */
const TONE: Record<string, string> = {
  active: 'good',
  published: 'good',
  succeeded: 'good',
  enabled: 'good',
  draft: 'neutral',
  pending: 'neutral',
  suspended: 'warn',
  expired: 'warn',
  archived: 'neutral',
  deactivated: 'neutral',
  disabled: 'neutral',
  revoked: 'bad',
  failed: 'bad',
};

export function StatusBadge({ status }: { status: string }) {
  return <span className={`badge badge-${TONE[status] ?? 'neutral'}`}>{status}</span>;
}
