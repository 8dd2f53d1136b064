import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useLocation, useNavigate } from 'react-router';
import { api, unwrap } from '../../api/client';
import { useCan } from '../../auth/permissions';
import { ConfirmButton } from '../../components/ConfirmButton';
import { CopyValue } from '../../components/CopyButton';
import { ErrorBanner } from '../../components/ErrorBanner';
import { ConnectSection } from './ConnectSection';
import { ProductForm, type ProductBody } from './ProductForm';
import { useCurrentProduct } from './ProductPage';
import { productKeys } from './productQueries';
import { FeaturesSection } from './FeaturesSection';
import { SigningKeysSection } from './SigningKeysSection';

/**
 * How to connect a plugin to the product, its keys, its fields, and deletion (changes only for a role that may change
 * the catalog).
 */
export function ProductSettingsTab() {
  const product = useCurrentProduct();
  const canEdit = useCan()('catalog');
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const created = (useLocation().state as { created?: string } | null)?.created;
  const path = { params: { path: { id: product.id } } };
  const refresh = () => queryClient.invalidateQueries({ queryKey: productKeys.all });
  const save = useMutation({ mutationFn: (body: ProductBody) => unwrap(api.PUT('/api/products/{id}', { ...path, body })), onSuccess: refresh });
  const regenerateKey = useMutation({ mutationFn: () => unwrap(api.POST('/api/products/{id}/regenerate-public-key', path)), onSuccess: refresh });
  const remove = useMutation({
    mutationFn: () => unwrap(api.DELETE('/api/products/{id}', path)),
    onSuccess: async () => {
      await refresh();
      void navigate('/products');
    },
  });
  return (
    <>
      {created && (
        <p className="banner banner-success" role="status">
          {created} is created. Connect your plugin or app with one of the snippets below; add releases and plans in their tabs.
        </p>
      )}
      <ConnectSection product={product} />
      <section className="card" aria-labelledby="keys-heading">
        <h2 id="keys-heading">Keys</h2>
        <p className="muted">The public key identifies the product to the public API: safe to ship inside your plugin.</p>
        <CopyValue value={product.public_key} label="Public key" />
        <ErrorBanner error={regenerateKey.error} />
        {canEdit && (
          <ConfirmButton label="Replace public key" title="Replace the public key?" onConfirm={() => regenerateKey.mutate()}>
            <p>Installed copies that send the old key are refused at once.</p>
          </ConfirmButton>
        )}
      </section>
      <SigningKeysSection product={product} canRotate={canEdit} />
      {canEdit && (
        <>
          <FeaturesSection product={product} />
          <section className="card" aria-labelledby="details-heading">
            <h2 id="details-heading">Details</h2>
            {/* Keyed by updatedAt: the form starts again from what the service saved. */}
            <ProductForm key={product.updatedAt} product={product} submitLabel="Save product" pending={save.isPending} error={save.error} onSubmit={(body) => save.mutate(body)} />
            {save.isSuccess && <p role="status">Saved.</p>}
          </section>
          <section className="card card-danger" aria-labelledby="delete-heading">
            <h2 id="delete-heading">Delete</h2>
            <p>Plugins stop finding the product; its licenses stop validating. The slug stays taken.</p>
            <ErrorBanner error={remove.error} />
            <ConfirmButton label="Delete product" title={`Delete ${product.name}?`} onConfirm={() => remove.mutate()} />
          </section>
        </>
      )}
    </>
  );
}
