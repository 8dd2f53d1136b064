/** The public surface of shared/platform/secrets: what the contexts and the functions use of it. */
export { SECRET_ACCESS } from './secret-access.js';
export { createSecretBox } from './secret-box.js';
export type { SealContext, SecretBox } from './secret-box.js';
