import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { useCan, type Permission } from '../auth/permissions';

type NewLink = { to: string; label: string; permission: Permission };

/** A list page's title and its "New …" link, for a role that may create (none while the page withholds it). */
export function PageHead({ title, newLink }: { title: string; newLink?: NewLink }) {
  const can = useCan();
  return (
    <div className="page-head">
      <h1>{title}</h1>
      {newLink && can(newLink.permission) && (
        <Link className="button button-primary" to={newLink.to}>
          {newLink.label}
        </Link>
      )}
    </div>
  );
}

/** A list page's head, then its filters: a search box first. */
export function ListHeader({ title, newLink, search, children }: { title: string; newLink: NewLink; search: { value: string; placeholder: string; onChange: (value: string) => void }; children?: ReactNode }) {
  return (
    <>
      <PageHead title={title} newLink={newLink} />
      <Filters>
        <SearchFilter label="Search" {...search} />
        {children}
      </Filters>
    </>
  );
}

/** The filters of a list, as one search landmark. */
export function Filters({ children }: { children: ReactNode }) {
  return (
    <div className="filters" role="search">
      {children}
    </div>
  );
}

/** A filter of a list by what a field holds. */
export function SearchFilter({ label, value, placeholder, onChange }: { label: string; value: string; placeholder?: string; onChange: (value: string) => void }) {
  return (
    <label>
      {label}
      <input type="search" value={value} placeholder={placeholder} onChange={(e) => onChange(e.target.value)} />
    </label>
  );
}

type SelectFilterProps = {
  label: string;
  value: string;
  options: readonly { value: string; label: string }[];
  onChange: (value: string) => void;
  /** What no filter is called ("Any", unless told). */
  anyLabel?: string;
  className?: string;
};

/** A filter of a list by one of a few values; the first choice is no filter. */
export function SelectFilter({ label, value, options, onChange, anyLabel = 'Any', className }: SelectFilterProps) {
  return (
    <label className={className}>
      {label}
      <select value={value} onChange={(e) => onChange(e.target.value)}>
        <option value="">{anyLabel}</option>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </label>
  );
}
