import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, unwrap } from '../../api/client';
import type { components } from '../../api/schema.gen';
import { ErrorBanner } from '../../components/ErrorBanner';
import { Field } from '../../components/Field';
import { formatDay, formatMoney } from '../../components/format';
import { usePlans } from '../products/productQueries';

type Subscription = components['schemas']['Subscription'];

/**
 * Moves a subscription to another recurring plan of its product (DECISIONS §15): an upgrade applies now, a downgrade
 * at the period's end (the answer's `effectiveAt`); too many active sites for the new plan is the service's 409, an
 * upgrade the buyer's card did not pay its 402. Offers what the service takes (DECISIONS §20): active plans (private
 * ones too), and while a downgrade is pending the current plan, which takes it back, instead of the pending one.
 */
export function ChangePlanForm({ subscription, productId }: { subscription: Subscription; productId: string }) {
  const queryClient = useQueryClient();
  const plans = usePlans(productId);
  const pendingPlanId = subscription.pendingPlanId ?? undefined;
  const choices = (plans.data?.items ?? []).filter(
    (plan) => plan.billingCycle !== 'lifetime' && (pendingPlanId ? plan.id !== pendingPlanId : plan.id !== subscription.planId) && (plan.isActive || plan.id === subscription.planId),
  );
  const [planId, setPlanId] = useState('');
  const change = useMutation({
    mutationFn: (body: { planId: string }) => unwrap(api.POST('/api/subscriptions/{id}/change-plan', { params: { path: { id: subscription.id } }, body })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['customers'] }),
  });
  const chosen = planId || choices[0]?.id || '';
  const pending = change.data && change.data.subscription.pendingPlanId ? change.data : undefined;
  return (
    <form
      className="inline-form"
      aria-label={`Change plan of ${subscription.productName ?? 'subscription'}`}
      onSubmit={(event) => {
        event.preventDefault();
        if (chosen) change.mutate({ planId: chosen });
      }}
    >
      <Field label="New plan">
        <select value={chosen} onChange={(e) => setPlanId(e.target.value)} disabled={choices.length === 0}>
          {choices.map((plan) => (
            <option key={plan.id} value={plan.id}>
              {plan.id === subscription.planId ? `Keep ${plan.name} (cancel the scheduled downgrade)` : `${plan.name} · ${formatMoney(plan.price, plan.currency)} ${plan.billingCycle} · ${plan.siteLimit} seats`}
            </option>
          ))}
        </select>
      </Field>
      <button type="submit" className="button" disabled={!chosen || change.isPending}>
        Change plan
      </button>
      <ErrorBanner error={change.error} />
      {change.isSuccess && (
        <p role="status">{pending ? `Downgrade scheduled: takes effect on ${formatDay(pending.effectiveAt)}.` : 'Plan changed.'}</p>
      )}
    </form>
  );
}
