import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { api, unwrap } from '../../api/client';
import { CustomerForm, type CustomerBody } from './CustomerForm';

export function NewCustomerPage() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const create = useMutation({
    mutationFn: (body: CustomerBody) => unwrap(api.POST('/api/customers', { body })),
    onSuccess: (customer) => {
      void queryClient.invalidateQueries({ queryKey: ['customers'] });
      void navigate(`/customers/${customer.id}`);
    },
  });
  return (
    <>
      <h1>New customer</h1>
      <CustomerForm submitLabel="Create customer" pending={create.isPending} error={create.error} onSubmit={(body) => create.mutate(body)} />
    </>
  );
}
