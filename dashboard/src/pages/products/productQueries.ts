import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../api/client';

/** Query keys of a product and what hangs off it, so a change can refresh exactly what it touched. */
export const productKeys = {
  all: ['products'] as const,
  one: (id: string) => ['products', id] as const,
  releases: (id: string) => ['products', id, 'releases'] as const,
  plans: (id: string) => ['products', id, 'plans'] as const,
};

export const useProduct = (id: string) =>
  useQuery({ queryKey: productKeys.one(id), queryFn: () => unwrap(api.GET('/api/products/{id}', { params: { path: { id } } })) });

export const useReleases = (productId: string) =>
  useQuery({
    queryKey: productKeys.releases(productId),
    queryFn: () => unwrap(api.GET('/api/products/{id}/releases', { params: { path: { id: productId } } })),
  });

export const usePlans = (productId: string) =>
  useQuery({
    queryKey: productKeys.plans(productId),
    queryFn: () => unwrap(api.GET('/api/products/{id}/plans', { params: { path: { id: productId } } })),
    enabled: productId !== '',
  });

/** Every live product, for pickers (licenses); a vendor has few, so the first 100 are all of them. */
export const useProductChoices = () =>
  useQuery({
    queryKey: [...productKeys.all, 'choices'],
    queryFn: () => unwrap(api.GET('/api/products', { params: { query: { per_page: '100' } } })).then((page) => page.items),
  });
