import { loadConfig } from '../../shared/config.js';
import { createMailQueue } from '../../shared/mail/mail-queue.js';
import { createLoadedDeps } from '../../shared/runtime.js';
import { createDeliveryQueue } from '../../shared/webhooks/delivery-queue.js';
import { createFanOutHandler } from './app.js';

const config = loadConfig();
export const handler = createFanOutHandler(await createLoadedDeps(config, 'webhookWorker'), { deliveries: createDeliveryQueue(config), mail: createMailQueue(config) });
