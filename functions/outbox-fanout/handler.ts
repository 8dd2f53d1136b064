import { createLoadedDeps, loadConfig } from '../../shared/platform/index.js';
import { createDeliveryQueue, createMailQueue } from '../../shared/messaging/index.js';
import { createFanOutHandler } from './app.js';

const config = loadConfig();
export const handler = createFanOutHandler(await createLoadedDeps(config, 'webhookWorker'), { deliveries: createDeliveryQueue(config), mail: createMailQueue(config) });
