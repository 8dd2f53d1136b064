import { createLoadedDeps, loadConfig } from '../../shared/platform/index.js';
import { createSecretBox, SECRET_ACCESS } from '../../shared/platform/secrets/index.js';
import { createDeliveryQueue } from '../../shared/messaging/index.js';
import { createDispatcherHandler } from './app.js';

const config = loadConfig();
export const handler = createDispatcherHandler(
  { ...(await createLoadedDeps(config, 'webhookWorker')), secrets: createSecretBox(config, SECRET_ACCESS.webhookDispatcher) },
  createDeliveryQueue(config),
);
