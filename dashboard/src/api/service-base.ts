import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from './client';

export const PAYMENT_PROVIDER_KEY = ['payment-provider'] as const;

export const usePaymentProvider = () => useQuery({ queryKey: PAYMENT_PROVIDER_KEY, queryFn: () => unwrap(api.GET('/api/payment-provider')) });

/**
 * Where plugins and buyers reach the service (the edge and public surfaces), which need not be where the dashboard
 * is: in AWS the dashboard's CloudFront distribution serves `/api` only. The service states its public base in the
 * Stripe webhook URL it gives out (`{base}/v1/webhooks/stripe/{userId}`, PUBLIC_BASE_URL or its own address).
 */
export function useServiceBaseUrl(): string | undefined {
  const provider = usePaymentProvider();
  return provider.data?.webhookUrl.replace(/\/v1\/webhooks\/stripe\/[^/]+$/, '');
}
