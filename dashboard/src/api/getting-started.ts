import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from './client';
import type { GettingStarted } from './types';

export const GETTING_STARTED_KEY = ['getting-started'] as const;

export const hasOpenSteps = (data?: GettingStarted) => data?.steps.some((step) => !step.done) ?? false;

/**
 * The account's first steps, each ticked from its real state (`GET /api/getting-started`); any role may read it.
 * `pollMs`: asked again that often while a step is open, so that a step taken elsewhere ticks without a reload.
 */
export const useGettingStarted = (pollMs?: number) =>
  useQuery({
    queryKey: GETTING_STARTED_KEY,
    queryFn: () => unwrap(api.GET('/api/getting-started')),
    refetchInterval: (query) => (pollMs && hasOpenSteps(query.state.data) ? pollMs : false),
  });

/**
 * Whether a payment provider is connected: undefined while unknown. Read from the first steps rather than the payment
 * provider's own route, which only owners and admins may read, so every role's pages can tell.
 */
export function usePaymentConnected(): boolean | undefined {
  return useGettingStarted().data?.steps.find((step) => step.step === 'connectStripe')?.done;
}
