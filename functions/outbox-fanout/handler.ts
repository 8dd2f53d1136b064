import { loadConfig } from '../../shared/platform/config.js';
import { createMailQueue } from '../../shared/messaging/mail/mail-queue.js';
import { createLoadedDeps } from '../../shared/platform/runtime.js';
import { createDeliveryQueue } from '../../shared/messaging/webhooks/delivery-queue.js';
import { createFanOutHandler } from './app.js';

const config = loadConfig();
export const handler = createFanOutHandler(await createLoadedDeps(config, 'webhookWorker'), { deliveries: createDeliveryQueue(config), mail: createMailQueue(config) });
