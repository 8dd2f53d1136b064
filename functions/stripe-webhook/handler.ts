import { FUNCTION_CONFIG_SECTIONS, loadConfig } from '../../shared/platform/index.js';
import { createStripeWebhookDeps, createStripeWebhookHandler } from './app.js';

const deps = createStripeWebhookDeps(loadConfig(process.env, FUNCTION_CONFIG_SECTIONS.stripeWebhook));
// Every route uses the data model: loaded at init (Lambda's init phase), not by the first request.
await deps.data.load();
export const handler = createStripeWebhookHandler(deps);
