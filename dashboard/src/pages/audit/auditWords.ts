/**
 * The words of an audit entry (DECISIONS §17: `{actor, action, target: {type, id}, changes: {field: [before, after]}}`):
 * what each action did, what each target and field is called, and where each kind of id leads in the dashboard.
 */

/** The verb of an action, by the part after its dot (`license.update` → "changed"); the full action first. */
const VERBS: Record<string, string> = {
  create: 'created',
  update: 'changed',
  delete: 'deleted',
  revoke: 'revoked',
  regenerate: 'gave a new key to',
  transfer: 'transferred',
  deactivate: 'deactivated',
  erase: 'erased the personal data of',
  changePlan: 'changed the plan of',
  regeneratePublicKey: 'replaced the public key of',
  rotateSigningKey: 'rotated the signing key of',
  regenerateSecret: 'gave a new signing secret to',
  redeliver: 'sent again',
  addFile: 'added a desktop file to',
  connect: 'connected',
  disconnect: 'disconnected',
  accept: 'accepted',
  remove: 'removed',
  changePassword: 'changed the password of',
  complete: 'completed',
  'member.update': 'changed the role of',
  'invitation.accept': 'joined the team through',
};

export function verbOf(action: string): string {
  const [kind, step = ''] = action.split('.', 2);
  if (kind === 'stripe') return `had Stripe report ${step.replace(/[._]/g, ' ')} for`;
  return VERBS[action] ?? VERBS[step] ?? `did “${action}” to`;
}

/** What a target's type is called in a sentence. */
const TARGETS: Record<string, string> = {
  apiKey: 'API key',
  membership: 'the membership of',
  user: 'account',
  exportJob: 'export',
  importJob: 'import',
  paymentProvider: 'the payment provider connection',
};
export const targetWord = (type: string) => TARGETS[type] ?? type.replace(/[A-Z]/g, (letter) => ` ${letter.toLowerCase()}`);

/** Targets that are one thing of the account and need no id to name them. */
export const SINGLE_TARGETS = new Set(['paymentProvider']);

/** Where an id leads, by its prefix (shared/platform/ids.ts), when its thing has a page of its own. */
const PAGES: Record<string, (id: string) => string> = {
  lic: (id) => `/licenses/${id}`,
  prd: (id) => `/products/${id}`,
  cus: (id) => `/customers/${id}`,
  whk: (id) => `/webhooks/${id}`,
  usr: () => '/team',
  inv: () => '/team',
  key: () => '/account',
  exp: () => '/account',
  imp: () => '/imports',
  cpn: () => '/coupons',
};
const ID = /^([a-z]{3})_[a-z2-7]{24}$/;

/** The page of the thing an id names, if it has one; plans and releases live on their product's page. */
export function pageOf(id: string, changes: Record<string, unknown[]> = {}): string | undefined {
  const prefix = ID.exec(id)?.[1];
  if (!prefix) return undefined;
  const productId = [changes.productId?.[1], changes.productId?.[0]].find((value) => typeof value === 'string');
  if (prefix === 'pln' && productId) return `/products/${productId}/plans`;
  if (prefix === 'rel' && productId) return `/products/${productId}/releases`;
  return PAGES[prefix]?.(id);
}
export const isId = (value: unknown): value is string => typeof value === 'string' && ID.test(value);

/** Field names in words: a few by name, the rest from their camelCase (`leaseSeconds` → "lease seconds"). */
const FIELDS: Record<string, string> = {
  expiresAt: 'expiry',
  customerEmail: 'customer e-mail',
  email: 'e-mail',
  planId: 'plan',
  productId: 'product',
  customerId: 'customer',
  licenseId: 'license',
  webhookId: 'webhook',
  avatarUrl: 'avatar URL',
  url: 'URL',
  returnOrigins: 'return origins',
  leaseSeconds: 'lease time (seconds)',
  includes: 'included products',
  productType: 'type',
};
export const fieldWord = (field: string) => FIELDS[field] ?? field.replace(/[A-Z]/g, (letter) => ` ${letter.toLowerCase()}`);
