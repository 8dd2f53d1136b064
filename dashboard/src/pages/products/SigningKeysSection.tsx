import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../api/client';
import type { Product } from '../../api/types';
import { ConfirmButton } from '../../components/ConfirmButton';
import { CopyButton, CopyValue } from '../../components/CopyButton';
import { ErrorBanner } from '../../components/ErrorBanner';
import { formatDate } from '../../components/format';
import { productKeys } from './productQueries';

/**
 * The keys that verify the product's signed answers and offline license files: the public halves to ship in the
 * plugin, and (`canRotate`: the role may) rotation (the old key keeps verifying for its grace period).
 */
export function SigningKeysSection({ product, canRotate }: { product: Product; canRotate: boolean }) {
  const queryClient = useQueryClient();
  const rotate = useMutation({
    mutationFn: () => unwrap(api.POST('/api/products/{id}/signing-key/rotate', { params: { path: { id: product.id } } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: productKeys.all }),
  });
  const rotateLabel = product.signingKeys.length === 0 ? 'Create signing key' : 'Rotate signing key';
  return (
    <section className="card" aria-labelledby="signing-heading">
      <h2 id="signing-heading">Signing keys</h2>
      <p className="muted">
        Answers to your plugin and offline license files are signed with the current key. Ship its public key in your plugin so that it can tell the
        service’s answers from a fake server’s.
      </p>
      {product.signingKeys.length === 0 && <p className="empty">This product has no signing key yet: its answers go out unsigned.</p>}
      <ul className="key-list">
        {product.signingKeys.map((key) => (
          <li key={key.keyId}>
            <p>
              <code>{key.keyId}</code>{' '}
              {key.current ? <span className="badge badge-good">current</span> : <span className="badge badge-warn">accepted until {formatDate(key.expiresAt)}</span>}{' '}
              <span className="muted">created {formatDate(key.createdAt)}</span>
            </p>
            <CopyValue value={key.publicKey} label={`Public signing key ${key.keyId}`} />
            <CopyButton value={key.publicKeyPem} label={`Copy ${key.keyId} as PEM`} />
          </li>
        ))}
      </ul>
      <ErrorBanner error={rotate.error} />
      {canRotate && (
        <ConfirmButton label={rotateLabel} title={`${rotateLabel}?`} onConfirm={() => rotate.mutate()}>
          <p>
            A new key signs from within a minute. The key that signs now stays valid for 7 days: copies of your plugin that pin only it must get the new
            public key by then. Rotate when a key may have leaked.
          </p>
        </ConfirmButton>
      )}
    </section>
  );
}
