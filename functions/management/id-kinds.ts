import { BadRequestError, NotFoundError } from '../../shared/platform/index.js';
import { INVALID_INVITATION, INVITATION_NOT_FOUND, INVITATION_TOKEN_SHAPE, MEMBER_NOT_FOUND } from '../../shared/identity/index.js';
import type { IdKind } from '../../shared/platform/http/index.js';

const kind = (prefix: IdKind['prefix'], notFound: string): IdKind => ({ prefix, unknown: () => new NotFoundError(notFound) });

/** The ids of `/api` paths and bodies, each with the 404 an unknown id of its kind gets from its domain module. */
export const ID_KINDS = {
  product: kind('prd', 'Product not found'),
  plan: kind('pln', 'Plan not found'),
  release: kind('rel', 'Release not found'),
  license: kind('lic', 'License not found'),
  activation: kind('act', 'Activation not found'),
  customer: kind('cus', 'Customer not found'),
  webhook: kind('whk', 'Webhook not found'),
  delivery: kind('dlv', 'Delivery not found'),
  apiKey: kind('key', 'API key not found'),
  export: kind('exp', 'Export not found'),
  import: kind('imp', 'Import not found'),
  member: kind('usr', MEMBER_NOT_FOUND),
  invitation: kind('inv', INVITATION_NOT_FOUND),
  /** The token of an invitation's link: anything else is answered as a used or expired one. */
  invitationToken: { prefix: 'inv', shape: INVITATION_TOKEN_SHAPE, unknown: () => new BadRequestError(INVALID_INVITATION) },
  subscription: kind('sub', 'Subscription not found'),
  coupon: kind('cpn', 'Coupon not found'),
} as const;
