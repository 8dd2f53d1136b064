import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { api, unwrap } from '../../api/client';
import type { Product } from '../../api/types';
import type { Column } from '../../components/DataTable';
import { useListFilters } from '../../components/list-filters';
import { ListHeader, SelectFilter } from '../../components/ListHeader';
import { QueryTable } from '../../components/QueryTable';
import { StatusBadge } from '../../components/StatusBadge';
import { productKeys } from './productQueries';

const STATUSES = ['active', 'draft', 'archived'] as const;

const COLUMNS: Column<Product>[] = [
  {
    header: 'Product',
    cell: (product) => (
      <>
        <Link to={`/products/${product.id}`}>
          {product.icon && <span aria-hidden="true">{product.icon} </span>}
          {product.name}
        </Link>
        <div className="muted small">{product.slug}</div>
      </>
    ),
  },
  { header: 'Type', cell: (product) => product.productType },
  { header: 'Status', cell: (product) => <StatusBadge status={product.status} /> },
  { header: 'Latest version', cell: (product) => product.latestVersion ?? '—' },
  { header: 'Plans', cell: (product) => product.plansCount },
];

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
      <QueryTable
        query={products}
        loading="Loading products…"
        label="Products"
        columns={COLUMNS}
        empty={search || status ? <p>No product matches.</p> : <p>No products yet. Create your first one to issue licenses and ship releases.</p>}
        onPage={(next) => update({ page: String(next) })}
      />
    </>
  );
}
