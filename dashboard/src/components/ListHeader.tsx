import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { useCan, type Permission } from '../auth/permissions';

/** A list page's title, its "New …" link (for a role that may create), and its filters (a search box first). */
export function ListHeader({ title, newLink, search, children }: { title: string; newLink: { to: string; label: string; permission: Permission }; search: { value: string; placeholder: string; onChange: (value: string) => void }; children?: ReactNode }) {
  const can = useCan();
  return (
    <>
      <div className="page-head">
        <h1>{title}</h1>
        {can(newLink.permission) && (
          <Link className="button button-primary" to={newLink.to}>
            {newLink.label}
          </Link>
        )}
      </div>
      <div className="filters" role="search">
        <label>
          Search
          <input type="search" value={search.value} placeholder={search.placeholder} onChange={(e) => search.onChange(e.target.value)} />
        </label>
        {children}
      </div>
    </>
  );
}

/** A filter of a list by one of a few values; "Any" is no filter. */
export function SelectFilter({ label, value, options, onChange }: { label: string; value: string; options: readonly { value: string; label: string }[]; onChange: (value: string) => void }) {
  return (
    <label>
      {label}
      <select value={value} onChange={(e) => onChange(e.target.value)}>
        <option value="">Any</option>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </label>
  );
}
