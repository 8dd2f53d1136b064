/** The public surface of shared/platform/aws: what the contexts and the functions use of it. */
export { generatedParameter } from './generated-parameter.js';
export { loadSqsSdk, queueSender } from './queue-sender.js';
export type { SqsSdk } from './queue-sender.js';
export { secretValue } from './secret-value.js';
export type { SecretValue } from './secret-value.js';
