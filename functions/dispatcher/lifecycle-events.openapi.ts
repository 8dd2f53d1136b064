import * as z from 'zod/mini';
import { licenseFields } from '../management/routes/licenses.openapi.js';
import { described, named } from '../../shared/platform/openapi/index.js';

/** `license.expiring`'s data (DECISIONS §15): the license, which reminder day it is, and where to renew. */
export const LicenseExpiring = named(
  'LicenseExpiring',
  z.object({
    ...licenseFields,
    reminderDay: described(z.number(), "The day of the product's `renewalReminderDays` this reminder is for."),
    renewalUrl: described(z.nullable(z.string()), "The checkout of the license's plan (as the update check's `renewal_url`); `null` for a license issued without a plan."),
  }),
  'A license that will expire without renewing, as its renewal reminder names it.',
);

/** `license.transferred`'s data: the license as it now is (the new owner's), and whose it was. */
export const LicenseTransferred = named(
  'LicenseTransferred',
  z.object({
    ...licenseFields,
    previousCustomerId: z.nullable(z.string()),
    previousCustomerEmail: z.string(),
    activationsKept: described(z.boolean(), 'The activations stayed (`keepActivations`); otherwise every one was deactivated.'),
  }),
  'A license moved to another customer, as it now is, with its previous owner.',
);
