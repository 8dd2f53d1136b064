import { loadConfig } from '../../shared/platform/config.js';
import { createLoadedDeps } from '../../shared/platform/runtime.js';
import { SECRET_ACCESS } from '../../shared/platform/secrets/secret-access.js';
import { createSecretBox } from '../../shared/platform/secrets/secret-box.js';
import { createDeliveryQueue } from '../../shared/messaging/webhooks/delivery-queue.js';
import { createDispatcherHandler } from './app.js';

const config = loadConfig();
export const handler = createDispatcherHandler(
  { ...(await createLoadedDeps(config, 'webhookWorker')), secrets: createSecretBox(config, SECRET_ACCESS.webhookDispatcher) },
  createDeliveryQueue(config),
);
