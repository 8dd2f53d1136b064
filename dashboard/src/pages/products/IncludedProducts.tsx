import { CheckboxField } from '../../components/Field';
import { useProductChoices } from './productQueries';

/**
 * A bundle's included products (DECISIONS §23) as checkboxes: the account's products that are not bundles, the bundle
 * itself left out. The service wants 2 to 100 of them and says so when saving. An included product deleted since is
 * kept (and shown by its id) until it is unchecked.
 */
export function IncludedProducts({ bundleId, value, onChange, error }: { bundleId?: string; value: string[]; onChange: (ids: string[]) => void; error?: string }) {
  const products = useProductChoices();
  const choices = (products.data ?? []).filter((product) => product.productType !== 'bundle' && product.id !== bundleId);
  const known = new Set(choices.map((product) => product.id));
  const shown = [...choices.map(({ id, name }) => ({ id, name })), ...value.filter((id) => !known.has(id)).map((id) => ({ id, name: `${id} (deleted)` }))];
  const toggle = (id: string) => (checked: boolean) => onChange(checked ? [...value, id] : value.filter((other) => other !== id));
  return (
    <fieldset className="checkboxes" aria-label="Included products">
      <legend>Included products</legend>
      <p className="muted small">One license key of the bundle validates, activates and updates each product checked here (2 to 100).</p>
      {products.isPending && <p className="muted">Loading products…</p>}
      {shown.map((product) => (
        <CheckboxField key={product.id} label={product.name} checked={value.includes(product.id)} onChange={toggle(product.id)} />
      ))}
      {error && <small className="field-error">{error}</small>}
    </fieldset>
  );
}
