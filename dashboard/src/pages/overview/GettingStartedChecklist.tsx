import { Link } from 'react-router';
import { hasOpenSteps, useGettingStarted } from '../../api/getting-started';
import type { GettingStarted } from '../../api/types';

type Step = GettingStarted['steps'][number]['step'];

/** What each step asks, and the page that does it (the later steps are about the account's first product). */
const STEPS: Record<Step, { label: string; path: (productId: string | null) => string }> = {
  createProduct: { label: 'Create a product', path: () => '/products/new' },
  uploadRelease: { label: 'Upload a release', path: (id) => (id ? `/products/${id}/releases` : '/products') },
  connectPlugin: { label: 'Connect a plugin or app', path: (id) => (id ? `/products/${id}#connect` : '/products') },
  connectStripe: { label: 'Connect Stripe', path: () => '/payment-provider' },
  shareCheckoutLink: { label: 'Share a checkout link', path: (id) => (id ? `/products/${id}/plans` : '/products') },
};

/** While a step is open, the service is asked again this often, so a step taken elsewhere (a plugin's first activation) ticks here. */
const REFRESH_MS = 5_000;

/**
 * A new account's first steps (DECISIONS §22), each ticked from the account's real state (`GET /api/getting-started`),
 * shown on the overview until every step is done.
 */
export function GettingStartedChecklist() {
  const { data } = useGettingStarted(REFRESH_MS);
  if (!data || !hasOpenSteps(data)) return null;
  const done = data.steps.filter((step) => step.done).length;
  return (
    <section className="card checklist" aria-labelledby="checklist-heading">
      <h2 id="checklist-heading">Get started</h2>
      <p className="muted" id="checklist-progress">
        {done} of {data.steps.length} done
      </p>
      <ol aria-describedby="checklist-progress">
        {data.steps.map(({ step, done }) => (
          <li key={step} className={done ? 'checklist-done' : undefined}>
            <span className="checklist-mark" aria-hidden="true">
              {done ? '✓' : ''}
            </span>
            {done ? <span className="checklist-label">{STEPS[step].label}</span> : <Link to={STEPS[step].path(data.productId)}>{STEPS[step].label}</Link>}
            <span className="visually-hidden">{done ? ' (done)' : ' (to do)'}</span>
          </li>
        ))}
      </ol>
    </section>
  );
}
