import { MutationCache, QueryCache, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { ApiError, isUnauthenticated } from './api/errors';
import { ME_KEY } from './auth/session';
import { router } from './routes';
import { applyTheme, initialTheme } from './theme';
import './styles.css';

applyTheme(initialTheme(), false);

/**
 * A session that ended meanwhile (expired, signed out elsewhere, password changed) makes any call 401: ask who is
 * signed in again, and `RequireSession` sends the visitor to sign in. Not for the `me` query itself, which is that ask.
 */
const onUnauthenticated = (error: unknown, queryKey?: readonly unknown[]) => {
  if (isUnauthenticated(error) && queryKey?.[0] !== ME_KEY[0]) void queryClient.invalidateQueries({ queryKey: ME_KEY });
};

/** A refusal (4xx) is the answer, not a hiccup: only unreachable or failing service calls are retried. */
const queryClient = new QueryClient({
  queryCache: new QueryCache({ onError: (error, query) => onUnauthenticated(error, query.queryKey) }),
  mutationCache: new MutationCache({ onError: (error) => onUnauthenticated(error) }),
  defaultOptions: {
    queries: {
      retry: (failures, error) => !(error instanceof ApiError && error.status >= 400 && error.status < 500) && failures < 2,
      refetchOnWindowFocus: false,
    },
  },
});

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>
  </StrictMode>,
);
