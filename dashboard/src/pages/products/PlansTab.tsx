import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';
import { api, unwrap } from '../../api/client';
import { usePaymentConnected } from '../../api/getting-started';
import { useCan } from '../../auth/permissions';
import type { Plan, Product } from '../../api/types';
import { useServiceBaseUrl } from '../../api/service-base';
import { ConfirmButton } from '../../components/ConfirmButton';
import { CopyButton } from '../../components/CopyButton';
import { ErrorBanner } from '../../components/ErrorBanner';
import { formatMoney } from '../../components/format';
import { QueryView } from '../../components/QueryView';
import { StatusBadge } from '../../components/StatusBadge';
import { PlanForm, type PlanBody } from './PlanForm';
import { useCurrentProduct } from './ProductPage';
import { productKeys, usePlans } from './productQueries';

export function PlansTab() {
  const product = useCurrentProduct();
  const queryClient = useQueryClient();
  const plans = usePlans(product.id);
  const canEdit = useCan()('catalog');
  const selling = usePaymentConnected();
  const create = useMutation({
    mutationFn: (body: PlanBody) => unwrap(api.POST('/api/products/{id}/plans', { params: { path: { id: product.id } }, body })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: productKeys.one(product.id) }),
  });
  return (
    <>
      {canEdit && (
        <section className="card" aria-labelledby="new-plan-heading">
          <h2 id="new-plan-heading">New plan</h2>
          {/* A new form after each plan created. */}
          <PlanForm key={create.data?.id} features={product.features} submitLabel="Create plan" pending={create.isPending} error={create.error} onSubmit={(body) => create.mutate(body)} />
        </section>
      )}
      <section aria-labelledby="plans-heading">
        <h2 id="plans-heading">Plans</h2>
        {selling === false && (
          <p className="banner" role="note">
            Checkout links appear here once a payment provider is connected: <Link to="/payment-provider">connect Stripe</Link> to sell these plans.
          </p>
        )}
        <QueryView query={plans} loading="Loading plans…" isEmpty={(data) => data.items.length === 0} empty={<p>No plans yet: buyers need one to check out.</p>}>
          {(data) => (
            <ul className="list">
              {data.items.map((plan) => (
                <PlanItem key={plan.id} plan={plan} publicKey={product.public_key} selling={selling === true} features={product.features} />
              ))}
            </ul>
          )}
        </QueryView>
      </section>
    </>
  );
}

/** The public checkout link of a plan (`/public/v1/checkout/plan_…`), as `GET /public/v1/plans` gives it. */
const checkoutLink = (base: string, plan: Plan, publicKey: string) =>
  `${base}/public/v1/checkout/${plan.id.replace(/^pln_/, 'plan_')}?public_key=${encodeURIComponent(publicKey)}`;

/** A plan; its checkout link only while a payment provider is connected (`selling`): before, a buyer could not pay. */
function PlanItem({ plan, publicKey, selling, features }: { plan: Plan; publicKey: string; selling: boolean; features: Product['features'] }) {
  const queryClient = useQueryClient();
  const base = useServiceBaseUrl();
  const canEdit = useCan()('catalog');
  const path = { params: { path: { id: plan.productId, planId: plan.id } } };
  const refresh = () => queryClient.invalidateQueries({ queryKey: productKeys.one(plan.productId) });
  const update = useMutation({ mutationFn: (body: PlanBody) => unwrap(api.PUT('/api/products/{id}/plans/{planId}', { ...path, body })), onSuccess: refresh });
  const remove = useMutation({ mutationFn: () => unwrap(api.DELETE('/api/products/{id}/plans/{planId}', path)), onSuccess: refresh });
  return (
    <li className="card">
      <div className="row-head">
        <h3>
          {plan.name} <StatusBadge status={plan.isActive ? 'active' : 'disabled'} /> {!plan.isPublic && <StatusBadge status="private" />}
        </h3>
        <div className="actions">
          {base && selling && <CopyButton value={checkoutLink(base, plan, publicKey)} label="Copy checkout link" />}
          {canEdit && (
            <ConfirmButton label="Delete" title={`Delete the plan ${plan.name}?`} onConfirm={() => remove.mutate()}>
              <p>Licenses already issued from it keep their seats and expiry.</p>
            </ConfirmButton>
          )}
        </div>
      </div>
      <p className="muted small">
        {formatMoney(plan.price, plan.currency)} {plan.billingCycle} · {plan.siteLimit} seat{plan.siteLimit === 1 ? '' : 's'} · slug {plan.slug}
        {plan.features.length > 0 && ` · features: ${plan.features.join(', ')}`}
      </p>
      <ErrorBanner error={remove.error} />
      {canEdit && (
        <details>
          <summary>Edit</summary>
          <PlanForm key={plan.updatedAt} plan={plan} features={features} submitLabel="Save plan" pending={update.isPending} error={update.error} onSubmit={(body) => update.mutate(body)} />
        </details>
      )}
    </li>
  );
}
