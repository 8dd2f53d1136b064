import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../api/client';

export const WEBHOOKS_KEY = ['webhooks'] as const;

/** Every webhook, and every event kind the service emits (the event picker's choices). */
export const useWebhooks = () => useQuery({ queryKey: WEBHOOKS_KEY, queryFn: () => unwrap(api.GET('/api/webhooks')) });
