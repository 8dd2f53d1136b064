import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { api, unwrap } from '../../api/client';
import { ProductForm, type ProductBody } from './ProductForm';
import { productKeys } from './productQueries';

export function NewProductPage() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const create = useMutation({
    mutationFn: (body: ProductBody) => unwrap(api.POST('/api/products', { body })),
    onSuccess: (product) => {
      void queryClient.invalidateQueries({ queryKey: productKeys.all });
      void navigate(`/products/${product.id}`);
    },
  });
  return (
    <>
      <h1>New product</h1>
      <ProductForm submitLabel="Create product" pending={create.isPending} error={create.error} onSubmit={(body) => create.mutate(body)} />
    </>
  );
}
