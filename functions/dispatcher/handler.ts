import { loadConfig } from '../../shared/config.js';
import { createLoadedDeps } from '../../shared/runtime.js';
import { SECRET_ACCESS } from '../../shared/secrets/secret-access.js';
import { createSecretBox } from '../../shared/secrets/secret-box.js';
import { createDeliveryQueue } from '../../shared/webhooks/delivery-queue.js';
import { createDispatcherHandler } from './app.js';

const config = loadConfig();
export const handler = createDispatcherHandler(
  { ...(await createLoadedDeps(config, 'webhookWorker')), secrets: createSecretBox(config, SECRET_ACCESS.webhookDispatcher) },
  createDeliveryQueue(config),
);
