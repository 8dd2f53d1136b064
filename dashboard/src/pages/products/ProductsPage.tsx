import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { api, unwrap } from '../../api/client';
import { useListFilters } from '../../components/list-filters';
import { ListHeader, SelectFilter } from '../../components/ListHeader';
import type { Product } from '../../api/types';
import { Pager } from '../../components/Pager';
import { QueryView } from '../../components/QueryView';
import { StatusBadge } from '../../components/StatusBadge';
import { productKeys } from './productQueries';
import { TableScroll } from '../../components/TableScroll';

const STATUSES = ['active', 'draft', 'archived'] as const;

export function ProductsPage() {
  const { page, filter, update } = useListFilters();
  const search = filter('search');
  const status = filter('status') as Product['status'] | '';
  const products = useQuery({
    queryKey: [...productKeys.all, { page, search, status }],
    queryFn: () => unwrap(api.GET('/api/products', { params: { query: { page: String(page), ...(search && { search }), ...(status && { status }) } } })),
    placeholderData: keepPreviousData,
  });
  return (
    <>
      <ListHeader title="Products" newLink={{ to: '/products/new', label: 'New product', permission: 'catalog' }} search={{ value: search, placeholder: 'Name or slug', onChange: (value) => update({ search: value }) }}>
        <SelectFilter label="Status" value={status} options={STATUSES.map((s) => ({ value: s, label: s }))} onChange={(value) => update({ status: value })} />
      </ListHeader>
      <QueryView
        query={products}
        loading="Loading products…"
        isEmpty={(data) => data.items.length === 0}
        empty={search || status ? <p>No product matches.</p> : <p>No products yet. Create your first one to issue licenses and ship releases.</p>}
      >
        {(data) => (
          <>
            <TableScroll label="Products">
              <table>
                <thead>
                  <tr>
                    <th scope="col">Product</th>
                    <th scope="col">Type</th>
                    <th scope="col">Status</th>
                    <th scope="col">Latest version</th>
                    <th scope="col">Plans</th>
                  </tr>
                </thead>
                <tbody>
                  {data.items.map((product) => (
                    <tr key={product.id}>
                      <td>
                        <Link to={`/products/${product.id}`}>
                          {product.icon && <span aria-hidden="true">{product.icon} </span>}
                          {product.name}
                        </Link>
                        <div className="muted small">{product.slug}</div>
                      </td>
                      <td>{product.productType}</td>
                      <td>
                        <StatusBadge status={product.status} />
                      </td>
                      <td>{product.latestVersion ?? '—'}</td>
                      <td>{product.plansCount}</td>
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
