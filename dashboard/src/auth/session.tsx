import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { api, unwrap } from '../api/client';
import { isUnauthenticated } from '../api/errors';
import { QueryView } from '../components/QueryView';

export const ME_KEY = ['me'] as const;

/** The signed-in developer (`GET /api/auth/me`); 401 means nobody is. */
export const useMe = () => useQuery({ queryKey: ME_KEY, queryFn: () => unwrap(api.GET('/api/auth/me')).then((answer) => answer.user) });

/** Pages behind it need a session: without one, sign in first and come back here. */
export function RequireSession({ children }: { children: ReactNode }) {
  const me = useMe();
  const location = useLocation();
  if (me.isError && isUnauthenticated(me.error)) {
    const next = `${location.pathname}${location.search}`;
    return <Navigate to={`/sign-in?next=${encodeURIComponent(next)}`} replace />;
  }
  return (
    <QueryView query={me} loading="Checking your session…">
      {() => children}
    </QueryView>
  );
}

/** Where to go after signing in: the page that asked (never another site), else the overview. */
export function afterSignIn(search: URLSearchParams): string {
  const next = search.get('next');
  return next && next.startsWith('/') && !next.startsWith('//') ? next : '/overview';
}
