import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { api, unwrap } from '../../api/client';
import type { License, LicenseStatus } from '../../api/types';
import type { Column } from '../../components/DataTable';
import { formatDay, stagingSites } from '../../components/format';
import { useListFilters } from '../../components/list-filters';
import { ListHeader, SelectFilter } from '../../components/ListHeader';
import { QueryTable } from '../../components/QueryTable';
import { StatusBadge } from '../../components/StatusBadge';
import { useProductChoices } from '../products/productQueries';

const STATUSES: LicenseStatus[] = ['active', 'suspended', 'expired', 'revoked'];

const COLUMNS: Column<License>[] = [
  {
    header: 'Key',
    cell: (license) => (
      <Link to={`/licenses/${license.id}`}>
        <code>{license.licenseKey}</code>
      </Link>
    ),
  },
  { header: 'Customer', cell: (license) => license.customerEmail },
  { header: 'Product', cell: (license) => license.product.name },
  { header: 'Status', cell: (license) => <StatusBadge status={license.status} /> },
  {
    header: 'Seats',
    cell: (license) => (
      <>
        {license.activatedCount} / {license.seats}
        {license.stagingCount > 0 && <span className="muted"> + {stagingSites(license.stagingCount)}</span>}
      </>
    ),
  },
  { header: 'Expires', cell: (license) => (license.expiresAt ? formatDay(license.expiresAt) : 'never') },
];

export function LicensesPage() {
  const { page, filter, update } = useListFilters();
  const search = filter('search');
  const status = filter('status') as LicenseStatus | '';
  const productId = filter('product');
  const products = useProductChoices();
  const licenses = useQuery({
    queryKey: ['licenses', { page, search, status, productId }],
    queryFn: () =>
      unwrap(api.GET('/api/licenses', { params: { query: { page: String(page), ...(search.trim() && { search: search.trim() }), ...(status && { status }), ...(productId && { product_id: productId }) } } })),
    placeholderData: keepPreviousData,
  });
  const filtered = Boolean(search || status || productId);
  return (
    <>
      <ListHeader title="Licenses" newLink={{ to: '/licenses/new', label: 'New license', permission: 'licenses' }} search={{ value: search, placeholder: 'Key or customer e-mail', onChange: (value) => update({ search: value }) }}>
        <SelectFilter label="Status" value={status} options={STATUSES.map((s) => ({ value: s, label: s }))} onChange={(value) => update({ status: value })} />
        <SelectFilter
          label="Product"
          value={productId}
          options={(products.data ?? []).map((product) => ({ value: product.id, label: product.name }))}
          onChange={(value) => update({ product: value })}
        />
      </ListHeader>
      <QueryTable
        query={licenses}
        loading="Loading licenses…"
        label="Licenses"
        columns={COLUMNS}
        empty={filtered ? <p>No license matches.</p> : <p>No licenses yet. Create one by hand, or sell one through a plan’s checkout link.</p>}
        onPage={(next) => update({ page: String(next) })}
      />
    </>
  );
}
