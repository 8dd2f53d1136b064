import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';
import { api, unwrap } from '../../api/client';
import { usePaymentConnected } from '../../api/getting-started';
import type { Coupon } from '../../api/types';
import { useCan } from '../../auth/permissions';
import { confirmColumn } from '../../components/confirm-column';
import type { Column } from '../../components/DataTable';
import { ErrorBanner } from '../../components/ErrorBanner';
import { formatDay, formatMoney } from '../../components/format';
import { QueryTable } from '../../components/QueryTable';
import { StatusBadge } from '../../components/StatusBadge';
import { CouponForm } from './CouponForm';
import { COUPONS_KEY, useCoupons } from './couponQueries';

const discountOf = (coupon: Coupon) =>
  coupon.percentOff !== null ? `${coupon.percentOff}% off` : coupon.amountOff !== null && coupon.currency ? `${formatMoney(coupon.amountOff, coupon.currency)} off` : '—';

const durationOf = (coupon: Coupon) => (coupon.duration === 'repeating' ? `for ${coupon.durationInMonths} months` : coupon.duration);

/** Coupons buyers redeem at checkout with their code (`promo=<code>`, or the checkout's field where a plan allows it). */
export function CouponsPage() {
  const canBill = useCan()('billing');
  const coupons = useCoupons();
  const selling = usePaymentConnected();
  const queryClient = useQueryClient();
  const deactivate = useMutation({
    mutationFn: (id: string) => unwrap(api.DELETE('/api/coupons/{id}', { params: { path: { id } } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: COUPONS_KEY }),
  });
  const columns: Column<Coupon>[] = [
    { header: 'Code', cell: (coupon) => <code>{coupon.code}</code> },
    { header: 'Discount', cell: discountOf },
    { header: 'Duration', cell: durationOf },
    { header: 'Limit', cell: (coupon) => coupon.maxRedemptions ?? 'none' },
    { header: 'Expires', cell: (coupon) => (coupon.expiresAt ? formatDay(coupon.expiresAt) : 'never') },
    { header: 'State', cell: (coupon) => <StatusBadge status={coupon.active ? 'active' : 'inactive'} /> },
    confirmColumn({
      label: 'Deactivate',
      title: (coupon) => `Deactivate ${coupon.code}?`,
      consequence: 'Checkout refuses the code from now on; discounts already given stay.',
      when: (coupon) => canBill && coupon.active,
      onConfirm: (coupon) => deactivate.mutate(coupon.id),
    }),
  ];
  return (
    <>
      <h1>Coupons</h1>
      <QueryTable query={coupons} loading="Loading coupons…" label="Coupons" columns={columns} empty={<p>No coupons yet.</p>} />
      <ErrorBanner error={deactivate.error} />
      {canBill && (
        <section className="card" aria-labelledby="new-coupon-heading">
          <h2 id="new-coupon-heading">New coupon</h2>
          {/* A coupon is made at Stripe (a coupon and its promotion code): said before the form, not after it is filled in. */}
          {selling === false ? (
            <p className="banner" role="note">
              Coupons are Stripe promotion codes: <Link to="/payment-provider">connect Stripe</Link> first, then create them here.
            </p>
          ) : (
            <CouponForm />
          )}
        </section>
      )}
    </>
  );
}
