import * as z from 'zod/mini';
import type { AccountSettings as AccountSettingsView } from '../../../shared/catalog/index.js';
import { assertDescribes, defineOperations, described, named } from '../../../shared/platform/openapi/index.js';

const AccountSettings = named(
  'AccountSettings',
  z.object({
    composerVendor: described(
      z.string(),
      'The vendor name of the account\'s packages in the Composer repository (`<composerVendor>/<product slug>`, DECISIONS §24): lower-case ' +
        "letters and digits joined by single `-`, `_` or `.`, at most 64, unique in the deployment. Defaults to the account's name as a slug " +
        '(with a suffix when another account holds it), claimed with the first product or the first read of the settings.',
    ),
  }),
  "The account's settings, one set per account (tenant).",
);
assertDescribes<typeof AccountSettings, AccountSettingsView>(true);

export const accountSettingsOperations = defineOperations({
  'GET /api/account/settings': {
    summary: "The account's settings",
    responses: { 200: { description: 'The settings', body: AccountSettings, examples: { settings: { composerVendor: 'acme' } } } },
  },
  'PUT /api/account/settings': {
    summary: "Change the account's settings",
    description:
      "Renaming the Composer vendor renames every package of the account at once: customers' `composer.json` files must name the new one " +
      '(the old name is free for another account to take).',
    requestBody: { examples: { vendor: { composerVendor: 'acme-software' } } },
    responses: { 200: { description: 'The settings', body: AccountSettings, examples: { settings: { composerVendor: 'acme-software' } } } },
    errors: { 409: ['Composer vendor acme-software is taken'] },
  },
});
