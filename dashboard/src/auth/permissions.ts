import type { components } from '../api/schema.gen';
import { useMe } from './session';

export type Permission = components['schemas']['TeamUser']['permissions'][number];

/**
 * Whether the signed-in user's role in the current tenant permits something (the service sends the list with the
 * user): controls the role cannot use are not shown at all, rather than refused when used.
 */
export function useCan(): (permission: Permission) => boolean {
  const me = useMe();
  return (permission) => me.data?.permissions.includes(permission) ?? false;
}
