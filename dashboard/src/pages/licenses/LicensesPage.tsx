import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { api, unwrap } from '../../api/client';
import { useListFilters } from '../../components/list-filters';
import { ListHeader, SelectFilter } from '../../components/ListHeader';
import type { LicenseStatus } from '../../api/types';
import { formatDay, stagingSites } from '../../components/format';
import { Pager } from '../../components/Pager';
import { QueryView } from '../../components/QueryView';
import { StatusBadge } from '../../components/StatusBadge';
import { useProductChoices } from '../products/productQueries';
import { TableScroll } from '../../components/TableScroll';

const STATUSES: LicenseStatus[] = ['active', 'suspended', 'expired', 'revoked'];

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
      <QueryView
        query={licenses}
        loading="Loading licenses…"
        isEmpty={(data) => data.items.length === 0}
        empty={filtered ? <p>No license matches.</p> : <p>No licenses yet. Create one by hand, or sell one through a plan’s checkout link.</p>}
      >
        {(data) => (
          <>
            <TableScroll label="Licenses">
              <table>
                <thead>
                  <tr>
                    <th scope="col">Key</th>
                    <th scope="col">Customer</th>
                    <th scope="col">Product</th>
                    <th scope="col">Status</th>
                    <th scope="col">Seats</th>
                    <th scope="col">Expires</th>
                  </tr>
                </thead>
                <tbody>
                  {data.items.map((license) => (
                    <tr key={license.id}>
                      <td>
                        <Link to={`/licenses/${license.id}`}>
                          <code>{license.licenseKey}</code>
                        </Link>
                      </td>
                      <td>{license.customerEmail}</td>
                      <td>{license.product.name}</td>
                      <td>
                        <StatusBadge status={license.status} />
                      </td>
                      <td>
                        {license.activatedCount} / {license.seats}
                        {license.stagingCount > 0 && <span className="muted"> + {stagingSites(license.stagingCount)}</span>}
                      </td>
                      <td>{license.expiresAt ? formatDay(license.expiresAt) : 'never'}</td>
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
