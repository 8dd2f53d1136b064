import { loadConfig } from '../../shared/config.js';
import { createDeps } from '../../shared/runtime.js';
import { createDeliveryQueue } from '../../shared/webhooks/delivery-queue.js';
import { createDispatcherHandler } from './app.js';

const config = loadConfig();
export const handler = createDispatcherHandler(createDeps(config, 'webhookWorker'), createDeliveryQueue(config));
