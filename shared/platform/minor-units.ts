/**
 * Stripe takes amounts in the currency's smallest unit (https://docs.stripe.com/currencies#zero-decimal):
 * most currencies have two decimals, these none (¥49 is `49`), and these three (Stripe wants the last digit 0).
 */
const ZERO_DECIMAL = new Set(['BIF', 'CLP', 'DJF', 'GNF', 'JPY', 'KMF', 'KRW', 'MGA', 'PYG', 'RWF', 'UGX', 'VND', 'VUV', 'XAF', 'XOF', 'XPF']);
const THREE_DECIMAL = new Set(['BHD', 'JOD', 'KWD', 'OMR', 'TND']);

/**
 * A major-unit price (DECISIONS §10: `49.5` USD is 49.50) in minor units: 4950. Plan prices have at most two
 * decimals; in a zero-decimal currency a fraction is rounded to the nearest whole unit, as it cannot be charged.
 */
export function toMinorUnits(price: number, currency: string): number {
  const code = currency.toUpperCase();
  if (ZERO_DECIMAL.has(code)) return Math.round(price);
  if (THREE_DECIMAL.has(code)) return Math.round(price * 100) * 10;
  // Rounded: 0.1 + 0.2 style floats (19.99 * 100 = 1998.9999…) must not lose a cent.
  return Math.round(price * 100);
}

/** The reverse: an amount Stripe reports in minor units (`4950` USD), in major units (`49.5`). */
export function fromMinorUnits(amount: number, currency: string): number {
  const code = currency.toUpperCase();
  if (ZERO_DECIMAL.has(code)) return amount;
  return THREE_DECIMAL.has(code) ? amount / 1000 : amount / 100;
}
