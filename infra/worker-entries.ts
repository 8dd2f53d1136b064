/**
 * Entry files of the functions no route reaches (queue, stream and schedule consumers), relative to the
 * project root. The stack deploys exactly these and the local runtime loads the same files, as
 * `HANDLER_ENTRIES` in `routes.ts` does for the HTTP surfaces.
 */
export const WORKER_ENTRIES = {
  webhookDispatcher: 'functions/dispatcher/handler.ts',
  outboxFanOut: 'functions/outbox-fanout/handler.ts',
  mailSender: 'functions/mail-sender/handler.ts',
  usageEventWriter: 'functions/usage-event-writer/handler.ts',
  expirySweep: 'functions/jobs/expiry-sweep.ts',
  outboxSweep: 'functions/jobs/outbox-sweep.ts',
  leaseExpiry: 'functions/jobs/lease-expiry.ts',
  healthCheck: 'functions/jobs/health-check.ts',
  exportWorker: 'functions/export-worker/handler.ts',
  importWorker: 'functions/import-worker/handler.ts',
} as const;
