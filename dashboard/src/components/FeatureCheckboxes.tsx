import { CheckboxField } from './Field';

type Feature = { key: string; name: string };

/**
 * A product's features as checkboxes (a plan's grant, a license's list): the keys checked are `value`. A key the
 * product no longer defines is kept (and shown) until it is unchecked, so saving never drops it unasked.
 */
export function FeatureCheckboxes({ features, value, onChange, hint }: { features: Feature[]; value: string[]; onChange: (keys: string[]) => void; hint: string }) {
  const defined = new Set(features.map((feature) => feature.key));
  const shown = [...features, ...value.filter((key) => !defined.has(key)).map((key) => ({ key, name: `${key} (no longer a feature of the product)` }))];
  if (shown.length === 0) return null;
  const toggle = (key: string) => (checked: boolean) => onChange(checked ? [...value, key] : value.filter((other) => other !== key));
  return (
    <fieldset className="checkboxes">
      <legend>Features</legend>
      <p className="muted small">{hint}</p>
      {shown.map((feature) => (
        <CheckboxField key={feature.key} label={`${feature.name} (${feature.key})`} checked={value.includes(feature.key)} onChange={toggle(feature.key)} />
      ))}
    </fieldset>
  );
}
