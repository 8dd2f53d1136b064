import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { useCan, type Permission } from './permissions';

/**
 * A page the role may not use, opened by its address: it says so instead of showing a form the service would refuse
 * (the navigation and the buttons that lead there are hidden already).
 */
export function Allowed({ permission, children }: { permission: Permission; children: ReactNode }) {
  const can = useCan();
  if (can(permission)) return children;
  return (
    <>
      <h1>Not available</h1>
      <p role="alert">
        Your role does not allow this. <Link to="/overview">Go to the overview</Link>.
      </p>
    </>
  );
}
