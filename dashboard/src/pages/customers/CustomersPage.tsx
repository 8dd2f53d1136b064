import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { api, unwrap } from '../../api/client';
import { useListFilters } from '../../components/list-filters';
import { ListHeader } from '../../components/ListHeader';
import { formatDay } from '../../components/format';
import { Pager } from '../../components/Pager';
import { QueryView } from '../../components/QueryView';
import { customerName } from './customerName';
import { TableScroll } from '../../components/TableScroll';

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
      <ListHeader title="Customers" newLink={{ to: '/customers/new', label: 'New customer', permission: 'customers' }} search={{ value: search, placeholder: 'Name or e-mail', onChange: (value) => update({ search: value }) }}>
      </ListHeader>
      <QueryView
        query={customers}
        loading="Loading customers…"
        isEmpty={(data) => data.items.length === 0}
        empty={search ? <p>No customer matches.</p> : <p>No customers yet. They appear with their first license or purchase.</p>}
      >
        {(data) => (
          <>
            <TableScroll label="Customers">
              <table>
                <thead>
                  <tr>
                    <th scope="col">Customer</th>
                    <th scope="col">Company</th>
                    <th scope="col">Since</th>
                  </tr>
                </thead>
                <tbody>
                  {data.items.map((customer) => (
                    <tr key={customer.id}>
                      <td>
                        <Link to={`/customers/${customer.id}`}>{customerName(customer)}</Link>
                        <div className="muted small">{customer.email}</div>
                      </td>
                      <td>{customer.company ?? '—'}</td>
                      <td>{formatDay(customer.createdAt)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableScroll>
            <Pager pagination={data.pagination} onPage={(next) => update({ page: String(next) })} />
          </>
        )}
      </QueryView>
    </>
  );
}
