import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../api/client';

export const COUPONS_KEY = ['coupons'] as const;

export const useCoupons = () => useQuery({ queryKey: COUPONS_KEY, queryFn: () => unwrap(api.GET('/api/coupons')) });
