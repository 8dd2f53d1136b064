/** The public surface of shared/platform/health: what the contexts and the functions use of it. */
export { checkHealth } from './health-check.js';
export { queueDepth } from './queue-depth.js';
