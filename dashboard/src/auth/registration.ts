import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../api/client';

/** Who may create an account on this deployment (DECISIONS §20): `open`, or `invite`. Read once per page load. */
export const useRegistration = () =>
  useQuery({ queryKey: ['registration'], queryFn: () => unwrap(api.GET('/api/auth/registration')).then((answer) => answer.registration), staleTime: Infinity });

/** The sign-in or sign-up page was reached from an invitation's link (which sends the browser on to accept it). */
export const cameFromInvitation = (search: URLSearchParams) => (search.get('next') ?? '').startsWith('/accept-invitation');

/** `path` with the page to go to afterwards (`next`), kept from one auth page to the other. */
export const keepingNext = (path: string, search: URLSearchParams) => {
  const next = search.get('next');
  return next ? `${path}?next=${encodeURIComponent(next)}` : path;
};
