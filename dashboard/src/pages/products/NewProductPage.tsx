import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { api, unwrap } from '../../api/client';
import { ProductForm, type ProductBody } from './ProductForm';
import { productKeys } from './productQueries';

/** A new product: the few fields it needs to start, the rest under "Advanced" (ProductForm). */
export function NewProductPage() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const create = useMutation({
    mutationFn: (body: ProductBody) => unwrap(api.POST('/api/products', { body })),
    onSuccess: (product) => {
      void queryClient.invalidateQueries({ queryKey: productKeys.all });
      // The product's page says it was created, and shows how to connect a plugin to it first.
      void navigate(`/products/${product.id}`, { state: { created: product.name } });
    },
  });
  return (
    <>
      <h1>New product</h1>
      <ProductForm submitLabel="Create product" pending={create.isPending} error={create.error} onSubmit={(body) => create.mutate(body)} />
    </>
  );
}
