import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { api, unwrap } from '../../api/client';
import type { Product } from '../../api/types';
import { ErrorBanner } from '../../components/ErrorBanner';
import { productKeys } from './productQueries';

type Feature = Product['features'][number];

const KEY = /^[a-z0-9-]{1,64}$/;

/** Why the list cannot be saved as it is (the service's rules: docs/api.md, Features), or undefined. */
function featuresProblem(features: Feature[]): string | undefined {
  const seen = new Set<string>();
  for (const { key, name } of features) {
    if (!KEY.test(key)) return `Feature key "${key}": 1 to 64 lower-case letters, digits or -`;
    if (!name.trim()) return `Feature ${key} needs a name`;
    if (seen.has(key)) return `Feature key ${key} is given twice`;
    seen.add(key);
  }
  return features.length > 100 ? 'At most 100 features' : undefined;
}

/**
 * What the product's plans may switch on inside the software (`hasFeature(key)` in the clients): a key the code asks
 * about and a name people read. Saved on its own, apart from the product's other fields.
 */
export function FeaturesSection({ product }: { product: Product }) {
  const queryClient = useQueryClient();
  const [features, setFeatures] = useState<Feature[]>(product.features);
  const [problem, setProblem] = useState<string>();
  const save = useMutation({
    mutationFn: (body: { features: Feature[] }) => unwrap(api.PUT('/api/products/{id}', { params: { path: { id: product.id } }, body })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: productKeys.all }),
  });
  const change = (index: number, field: keyof Feature) => (value: string) =>
    setFeatures(features.map((feature, i) => (i === index ? { ...feature, [field]: value } : feature)));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const cleaned = features.map(({ key, name }) => ({ key: key.trim(), name: name.trim() })).filter(({ key, name }) => key || name);
    const found = featuresProblem(cleaned);
    setProblem(found);
    if (!found) save.mutate({ features: cleaned });
  };
  return (
    <section className="card" aria-labelledby="features-heading">
      <h2 id="features-heading">Features</h2>
      <p className="muted">
        Plans grant features and licenses carry them; your code asks <code>hasFeature('key')</code>. Removing one takes it off the plans; licenses keep it
        until edited.
      </p>
      <form onSubmit={submit} noValidate>
        <table className="table">
          <thead>
            <tr>
              <th scope="col">Key</th>
              <th scope="col">Name</th>
              <th scope="col">
                <span className="visually-hidden">Remove</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {features.map((feature, index) => (
              <tr key={index}>
                <td>
                  <input aria-label={`Feature ${index + 1} key`} value={feature.key} placeholder="reports" onChange={(e) => change(index, 'key')(e.target.value)} />
                </td>
                <td>
                  <input aria-label={`Feature ${index + 1} name`} value={feature.name} placeholder="Reports" onChange={(e) => change(index, 'name')(e.target.value)} />
                </td>
                <td>
                  <button type="button" className="button" onClick={() => setFeatures(features.filter((_, i) => i !== index))}>
                    Remove <span className="visually-hidden">feature {feature.key || index + 1}</span>
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {problem && (
          <p className="field-error" role="alert">
            {problem}
          </p>
        )}
        <ErrorBanner error={save.error} />
        <div className="actions">
          <button type="button" className="button" onClick={() => setFeatures([...features, { key: '', name: '' }])}>
            Add feature
          </button>
          <button type="submit" className="button button-primary" disabled={save.isPending}>
            Save features
          </button>
          {save.isSuccess && <span role="status">Features saved.</span>}
        </div>
      </form>
    </section>
  );
}
