import * as z from 'zod/mini';
import { assertDescribes, defineOperations, named } from '../../../shared/platform/openapi/index.js';
import type { PortalSettings as PortalSettingsView } from '../../../shared/portal/index.js';

const PortalSettings = named(
  'PortalSettings',
  z.object({
    enabled: z.boolean(),
    name: z.nullable(z.string()),
    logoUrl: z.nullable(z.string()),
    accentColor: z.nullable(z.string()),
    supportEmail: z.nullable(z.string()),
  }),
  "The hosted customer portal (DECISIONS §25): on or off (default off), and how its pages show the vendor. `name` null: the product's name.",
);
assertDescribes<typeof PortalSettings, PortalSettingsView>(true);

const example = { enabled: true, name: 'Acme Plugins', logoUrl: 'https://acme.example.com/logo.png', accentColor: '#0b7285', supportEmail: 'support@acme.example.com' };

export const portalSettingsOperations = defineOperations({
  'GET /api/portal-settings': {
    summary: 'Customer portal settings',
    description: 'Owner and admin only (others 403). A vendor that never saved any has the portal off.',
    responses: {
      200: {
        description: 'The settings',
        body: PortalSettings,
        examples: { on: example, never: { enabled: false, name: null, logoUrl: null, accentColor: null, supportEmail: null } },
      },
    },
  },
  'PUT /api/portal-settings': {
    summary: 'Change the customer portal settings',
    description:
      'Owner and admin only (others 403). A field given replaces its value, `null` clears it, a field left out keeps its value. While ' +
      '`enabled` is false, `/portal` and its sign-in answer 404. Leaves an audit entry `portalSettings.update`.',
    requestBody: { examples: { on: example, off: { enabled: false } } },
    responses: { 200: { description: 'The settings as saved', body: PortalSettings, examples: { on: example } } },
    errors: {
      400: ['logoUrl: must be an https URL', 'accentColor: must be a colour as #rrggbb', 'supportEmail: must be a valid e-mail address', 'name: must be at most 100 characters'],
    },
  },
});
