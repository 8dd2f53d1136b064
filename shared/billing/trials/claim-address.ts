import { normalizeEmail } from '../../customers/index.js';

/** Gmail delivers `j.doe@`, `jdoe@` and `jdoe+x@` to one mailbox, under either of its domains. */
const GMAIL_DOMAINS = new Set(['gmail.com', 'googlemail.com']);

/**
 * The address a no-card trial is claimed by (DECISIONS §20): lower-cased, without a `+tag`, and at Gmail without the
 * local part's dots, so the addresses one mailbox receives share one claim. The license itself goes to the address
 * as given.
 */
export function claimAddress(email: string): string {
  const address = normalizeEmail(email);
  const at = address.lastIndexOf('@');
  const domain = address.slice(at + 1);
  const local = address.slice(0, at);
  const untagged = local.split('+')[0] || local;
  return GMAIL_DOMAINS.has(domain) ? `${untagged.replaceAll('.', '')}@gmail.com` : `${untagged}@${domain}`;
}
