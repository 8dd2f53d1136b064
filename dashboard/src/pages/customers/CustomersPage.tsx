import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { api, unwrap } from '../../api/client';
import { useListFilters } from '../../components/list-filters';
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
      <div className="page-head">
        <h1>Customers</h1>
        <Link className="button button-primary" to="/customers/new">
          New customer
        </Link>
      </div>
      <div className="filters" role="search">
        <label>
          Search
          <input type="search" value={search} placeholder="Name or e-mail" onChange={(e) => update({ search: e.target.value })} />
        </label>
      </div>
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
