import { loadConfig } from '../../shared/config.js';
import { createStripeWebhookDeps, createStripeWebhookHandler } from './app.js';

export const handler = createStripeWebhookHandler(createStripeWebhookDeps(loadConfig()));
