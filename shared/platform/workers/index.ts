/** The public surface of shared/platform/workers: what the contexts and the functions use of it. */
export { workerApp } from './app.js';
