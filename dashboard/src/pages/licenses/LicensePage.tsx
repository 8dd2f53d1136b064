import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useParams } from 'react-router';
import { api, unwrap } from '../../api/client';
import { useCan } from '../../auth/permissions';
import type { LicenseStatus, LicenseWithActivations } from '../../api/types';
import { ConfirmButton } from '../../components/ConfirmButton';
import { CopyValue } from '../../components/CopyButton';
import { ErrorBanner } from '../../components/ErrorBanner';
import { formatDate, stagingSites } from '../../components/format';
import { QueryView } from '../../components/QueryView';
import { StatusBadge } from '../../components/StatusBadge';
import { ActivationsTable } from './ActivationsTable';
import { BundleProducts } from './BundleProducts';
import { LeasesTable } from './LeasesTable';
import { useProduct } from '../products/productQueries';
import { LicenseEditForm, useLicenseSave } from './LicenseEditForm';
import { TransferLicenseForm } from './TransferLicenseForm';

export const licenseKey = (id: string) => ['licenses', id] as const;

export function LicensePage() {
  const { licenseId = '' } = useParams();
  const license = useQuery({ queryKey: licenseKey(licenseId), queryFn: () => unwrap(api.GET('/api/licenses/{id}', { params: { path: { id: licenseId } } })) });
  return (
    <>
      <p className="breadcrumb">
        <Link to="/licenses">Licenses</Link> /
      </p>
      <QueryView query={license} loading="Loading the license…">
        {(data) => <LicenseView license={data} />}
      </QueryView>
    </>
  );
}

function LicenseView({ license }: { license: LicenseWithActivations }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  // Its product's features, which the license may carry (a deleted product is still answered).
  const product = useProduct(license.productId);
  const path = { params: { path: { id: license.id } } };
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['licenses'] });
  const setStatus = useMutation({ mutationFn: (status: LicenseStatus) => unwrap(api.PUT('/api/licenses/{id}', { ...path, body: { status } })), onSuccess: refresh });
  const save = useLicenseSave(license);
  const revoke = useMutation({ mutationFn: () => unwrap(api.POST('/api/licenses/{id}/revoke', path)), onSuccess: refresh });
  const regenerate = useMutation({ mutationFn: () => unwrap(api.POST('/api/licenses/{id}/regenerate', path)), onSuccess: refresh });
  const remove = useMutation({
    mutationFn: () => unwrap(api.DELETE('/api/licenses/{id}', path)),
    onSuccess: async () => {
      await refresh();
      void navigate('/licenses');
    },
  });
  const revoked = license.status === 'revoked';
  const can = useCan();
  const support = can('licenseSupport');
  return (
    <>
      <div className="page-head">
        <h1>License for {license.customerEmail}</h1>
        <StatusBadge status={license.status} />
      </div>
      <section className="card" aria-labelledby="license-heading">
        <h2 id="license-heading" className="visually-hidden">
          License key
        </h2>
        <CopyValue value={license.licenseKey} label="License key" />
        <dl className="facts">
          <dt>Product</dt>
          <dd>
            <Link to={`/products/${license.product.id}`}>{license.product.name}</Link>
            {product.data?.productType === 'bundle' && ' (bundle)'}
          </dd>
          <BundleProducts includes={product.data?.productType === 'bundle' ? product.data.includes : undefined} />
          <dt>Seats used</dt>
          <dd>
            {license.floating ? `floating: ${license.seats} seats lent by leases of ${license.leaseSeconds / 60} min` : `${license.activatedCount} of ${license.seats}`}
            {license.stagingCount > 0 && <span className="muted"> + {stagingSites(license.stagingCount)} (no seat)</span>}
          </dd>
          <dt>Expires</dt>
          <dd>{license.expiresAt ? formatDate(license.expiresAt) : 'never'}</dd>
          <dt>Features</dt>
          <dd>{license.features.length > 0 ? license.features.join(', ') : 'none'}</dd>
          {license.graceUntil && (
            <>
              <dt>Payment failed</dt>
              <dd>In grace until {formatDate(license.graceUntil)}: it stays valid until then unless a payment succeeds</dd>
            </>
          )}
          <dt>Created</dt>
          <dd>{formatDate(license.createdAt)}</dd>
        </dl>
        <ErrorBanner error={setStatus.error ?? revoke.error ?? regenerate.error ?? remove.error} />
        <div className="actions">
          {support && license.status === 'active' && (
            <ConfirmButton label="Suspend" title="Suspend this license?" onConfirm={() => setStatus.mutate('suspended')}>
              <p>It stops validating until you reactivate it; its sites stay activated.</p>
            </ConfirmButton>
          )}
          {support && license.status === 'suspended' && (
            <button type="button" className="button" onClick={() => setStatus.mutate('active')}>
              Reactivate
            </button>
          )}
          {support && (
            <ConfirmButton label="Regenerate key" title="Replace the license key?" onConfirm={() => regenerate.mutate()}>
              <p>The old key stops working immediately; sites must enter the new one.</p>
            </ConfirmButton>
          )}
          {support && !revoked && (
            <ConfirmButton label="Revoke" title="Revoke this license?" onConfirm={() => revoke.mutate()}>
              <p>Every site is deactivated and the key no longer validates. This cannot be undone.</p>
            </ConfirmButton>
          )}
          {can('licenses') && (
            <ConfirmButton label="Delete" title="Delete this license?" onConfirm={() => remove.mutate()}>
              <p>The license, its key and its activations are removed for good.</p>
            </ConfirmButton>
          )}
        </div>
      </section>
      {support && (
        <section className="card" aria-labelledby="edit-heading">
          <h2 id="edit-heading">Seats, expiry and customer</h2>
          <LicenseEditForm key={license.updatedAt} license={license} save={save} features={product.data?.features ?? []} />
        </section>
      )}
      {support && !revoked && (
        <section className="card" aria-labelledby="transfer-heading">
          <h2 id="transfer-heading">Transfer to another customer</h2>
          <TransferLicenseForm license={license} />
        </section>
      )}
      {license.floating && (
        <section aria-labelledby="leases-heading">
          <h2 id="leases-heading">Live leases</h2>
          <LeasesTable licenseId={license.id} />
        </section>
      )}
      <section aria-labelledby="activations-heading">
        <h2 id="activations-heading">Activations</h2>
        <ActivationsTable activations={license.activations} />
      </section>
    </>
  );
}
