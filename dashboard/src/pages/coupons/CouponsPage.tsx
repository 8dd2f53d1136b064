import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../api/client';
import { useCan } from '../../auth/permissions';
import type { components } from '../../api/schema.gen';
import { ConfirmButton } from '../../components/ConfirmButton';
import { ErrorBanner } from '../../components/ErrorBanner';
import { formatDay, formatMoney } from '../../components/format';
import { QueryView } from '../../components/QueryView';
import { StatusBadge } from '../../components/StatusBadge';
import { TableScroll } from '../../components/TableScroll';
import { CouponForm } from './CouponForm';
import { COUPONS_KEY, useCoupons } from './couponQueries';

type Coupon = components['schemas']['Coupon'];

const discountOf = (coupon: Coupon) =>
  coupon.percentOff !== null ? `${coupon.percentOff}% off` : coupon.amountOff !== null && coupon.currency ? `${formatMoney(coupon.amountOff, coupon.currency)} off` : '—';

const durationOf = (coupon: Coupon) => (coupon.duration === 'repeating' ? `for ${coupon.durationInMonths} months` : coupon.duration);

/** Coupons buyers redeem at checkout with their code (`promo=<code>`, or the checkout's field where a plan allows it). */
export function CouponsPage() {
  const canBill = useCan()('billing');
  const coupons = useCoupons();
  const queryClient = useQueryClient();
  const deactivate = useMutation({
    mutationFn: (id: string) => unwrap(api.DELETE('/api/coupons/{id}', { params: { path: { id } } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: COUPONS_KEY }),
  });
  return (
    <>
      <h1>Coupons</h1>
      <QueryView
        query={coupons}
        loading="Loading coupons…"
        isEmpty={(data) => data.items.length === 0}
        empty={<p className="empty">No coupons yet.</p>}
      >
        {(data) => (
          <TableScroll label="Coupons">
            <table>
              <thead>
                <tr>
                  <th scope="col">Code</th>
                  <th scope="col">Discount</th>
                  <th scope="col">Duration</th>
                  <th scope="col">Limit</th>
                  <th scope="col">Expires</th>
                  <th scope="col">State</th>
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {data.items.map((coupon) => (
                  <tr key={coupon.id}>
                    <td>
                      <code>{coupon.code}</code>
                    </td>
                    <td>{discountOf(coupon)}</td>
                    <td>{durationOf(coupon)}</td>
                    <td>{coupon.maxRedemptions ?? 'none'}</td>
                    <td>{coupon.expiresAt ? formatDay(coupon.expiresAt) : 'never'}</td>
                    <td>
                      <StatusBadge status={coupon.active ? 'active' : 'inactive'} />
                    </td>
                    <td>
                      {canBill && coupon.active && (
                        <ConfirmButton label="Deactivate" title={`Deactivate ${coupon.code}?`} onConfirm={() => deactivate.mutate(coupon.id)}>
                          <p>Checkout refuses the code from now on; discounts already given stay.</p>
                        </ConfirmButton>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        )}
      </QueryView>
      <ErrorBanner error={deactivate.error} />
      {canBill && (
        <section className="card" aria-labelledby="new-coupon-heading">
          <h2 id="new-coupon-heading">New coupon</h2>
          <CouponForm />
        </section>
      )}
    </>
  );
}
