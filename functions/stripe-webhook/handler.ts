import { FUNCTION_CONFIG_SECTIONS, loadConfig } from '../../shared/config.js';
import { createStripeWebhookDeps, createStripeWebhookHandler } from './app.js';

export const handler = createStripeWebhookHandler(createStripeWebhookDeps(loadConfig(process.env, FUNCTION_CONFIG_SECTIONS.stripeWebhook)));
