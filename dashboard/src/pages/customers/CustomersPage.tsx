import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { api, unwrap } from '../../api/client';
import type { Customer } from '../../api/types';
import type { Column } from '../../components/DataTable';
import { formatDay } from '../../components/format';
import { useListFilters } from '../../components/list-filters';
import { ListHeader } from '../../components/ListHeader';
import { QueryTable } from '../../components/QueryTable';
import { customerName } from './customerName';

const COLUMNS: Column<Customer>[] = [
  {
    header: 'Customer',
    cell: (customer) => (
      <>
        <Link to={`/customers/${customer.id}`}>{customerName(customer)}</Link>
        <div className="muted small">{customer.email}</div>
      </>
    ),
  },
  { header: 'Company', cell: (customer) => customer.company ?? '—' },
  { header: 'Since', cell: (customer) => formatDay(customer.createdAt) },
];

export function CustomersPage() {
  const { page, filter, update } = useListFilters();
  const search = filter('search');
  const customers = useQuery({
    queryKey: ['customers', { page, search }],
    queryFn: () => unwrap(api.GET('/api/customers', { params: { query: { page: String(page), ...(search.trim() && { search: search.trim() }) } } })),
    placeholderData: keepPreviousData,
  });
  return (
    <>
      <ListHeader title="Customers" newLink={{ to: '/customers/new', label: 'New customer', permission: 'customers' }} search={{ value: search, placeholder: 'Name or e-mail', onChange: (value) => update({ search: value }) }} />
      <QueryTable
        query={customers}
        loading="Loading customers…"
        label="Customers"
        columns={COLUMNS}
        empty={search ? <p>No customer matches.</p> : <p>No customers yet. They appear with their first license or purchase.</p>}
        onPage={(next) => update({ page: String(next) })}
      />
    </>
  );
}
