import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { api, unwrap } from '../../api/client';
import type { AuditEntry } from '../../api/types';
import { formatDate } from '../../components/format';
import { licenseKey } from '../licenses/LicensePage';
import { fieldWord, isId, pageOf, SINGLE_TARGETS, targetWord, verbOf } from './auditWords';

/** Who is who: members by user id (their names) and API keys by id (their names). */
export type People = { members: Map<string, string>; apiKeys: Map<string, string> };

const ISO_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d/;
const LONGEST = 80;

/** An id, as a link to its thing where it has a page. */
function IdLink({ id, changes, children }: { id: string; changes?: Record<string, unknown[]>; children?: ReactNode }) {
  const to = pageOf(id, changes);
  const shown = children ?? <code>{id}</code>;
  return to ? <Link to={to}>{shown}</Link> : shown;
}

/** A value in words: nothing, yes/no, a date, an id as a link, a list, or quoted text (cut short when long). */
function Value({ value }: { value: unknown }) {
  if (value === null || value === undefined || value === '') return <>nothing</>;
  if (typeof value === 'boolean') return <>{value ? 'yes' : 'no'}</>;
  if (typeof value === 'number') return <>{value}</>;
  if (isId(value)) return <IdLink id={value} />;
  if (typeof value === 'string') {
    if (ISO_TIME.test(value)) return <>{formatDate(value)}</>;
    return <q>{value.length > LONGEST ? `${value.slice(0, LONGEST)}…` : value}</q>;
  }
  if (Array.isArray(value)) {
    if (value.length === 0) return <>none</>;
    // A bundle's included products, say: each id a link to its page.
    if (value.every(isId)) {
      return (
        <>
          {value.map((id, index) => (
            <span key={id}>
              {index > 0 && ', '}
              <IdLink id={id} />
            </span>
          ))}
        </>
      );
    }
    if (value.every((item) => typeof item !== 'object' || item === null)) return <>{value.map(String).join(', ')}</>;
    return <>{value.length} entries</>;
  }
  return <>new settings</>;
}

/** "the seats from 3 to 5", or "the seats of X from 3 to 5" when `of` names the target. */
function Change({ field, change: [before, after], of }: { field: string; change: unknown[]; of?: ReactNode }) {
  return (
    <>
      the {fieldWord(field)}
      {of && <> of {of}</>} from <Value value={before} /> to <Value value={after} />
    </>
  );
}

function actorOf(entry: AuditEntry, people: People): string {
  const { actor } = entry;
  if (actor.type === 'user') return people.members.get(actor.id) || actor.email || 'A former member';
  if (actor.type === 'apiKey') return people.apiKeys.has(actor.id) ? `The API key “${people.apiKeys.get(actor.id)}”` : 'An API key';
  if (actor.id === 'stripe') return 'Stripe';
  if (actor.id === 'import') return 'An import';
  return 'The service';
}

/** What names the target best: a license's key (read from the entry, or the license), a customer's e-mail, a name. */
function useTargetName(entry: AuditEntry): string | undefined {
  const { type, id } = entry.target;
  const fromEntry = (field: string) => [entry.changes[field]?.[1], entry.changes[field]?.[0]].find((value) => typeof value === 'string') as string | undefined;
  const keyInEntry = type === 'license' ? fromEntry('licenseKey') : undefined;
  // The same query (and cache) as the license's page; a deleted license is named by its id.
  const license = useQuery({
    queryKey: licenseKey(id),
    queryFn: () => unwrap(api.GET('/api/licenses/{id}', { params: { path: { id } } })),
    enabled: type === 'license' && !keyInEntry,
    retry: false,
    staleTime: 60_000,
  });
  if (type === 'license') return keyInEntry ?? license.data?.licenseKey;
  if (type === 'customer') return fromEntry('email');
  if (['product', 'plan', 'webhook', 'apiKey'].includes(type)) return fromEntry('name');
  if (type === 'coupon') return fromEntry('code');
  return undefined;
}

/**
 * One audit entry as a sentence: "Ana changed the seats of license ACME-… from 3 to 5." The actor by name, the action
 * as a verb, the target named and linked to its page, and each change from its value before to its value after.
 * Entries that set many fields at once (a creation) list them under "Details".
 */
export function AuditSentence({ entry, people }: { entry: AuditEntry; people: People }) {
  const name = useTargetName(entry);
  const { type, id } = entry.target;
  const target = SINGLE_TARGETS.has(type) ? (
    <>{targetWord(type)}</>
  ) : (
    <>
      {targetWord(type)}{' '}
      <IdLink id={id} changes={entry.changes}>
        {name ? <code>{name}</code> : undefined}
      </IdLink>
    </>
  );
  const actor = actorOf(entry, people);
  const verb = verbOf(entry.action);
  const changes = Object.entries(entry.changes);
  const listed = entry.action.endsWith('.create') || entry.action.endsWith('.delete') || changes.length > 4;
  let sentence: ReactNode;
  if (!listed && verb === 'changed' && changes.length === 1) {
    const [field, change] = changes[0]!;
    sentence = (
      <>
        {actor} changed <Change field={field} change={change} of={target} />.
      </>
    );
  } else if (!listed && changes.length > 0) {
    sentence = (
      <>
        {actor} {verb} {target}:{' '}
        {changes.map(([field, change], index) => (
          <span key={field}>
            {index > 0 && (index === changes.length - 1 ? ' and ' : ', ')}
            <Change field={field} change={change} />
          </span>
        ))}
        .
      </>
    );
  } else {
    sentence = (
      <>
        {actor} {verb} {target}.
      </>
    );
  }
  return (
    <div className="audit-sentence">
      <p>{sentence}</p>
      {listed && changes.length > 0 && (
        <details>
          <summary>Details</summary>
          <ul className="audit-changes">
            {changes.map(([field, change]) => (
              <li key={field}>
                <Change field={field} change={change} />
              </li>
            ))}
          </ul>
        </details>
      )}
    </div>
  );
}
