/**
 * How the table's stream feeds the fan-out, in AWS (the event source mapping, infra/constructs/webhook-delivery.ts)
 * and locally (infra/local/stream-poller.ts) alike. A record is never retried for long: while it is, it holds up the
 * records behind it in its shard (other tenants' events and e-mails). Once given up, its item is still pending, and
 * the outbox sweep forwards it (shared/messaging/outbox/sweep.ts).
 */
export const OUTBOX_STREAM_SETTINGS = {
  batchSize: 100,
  /** A failing record is retried this often (11 attempts in all), then given up: its batch's metadata goes to the stream's dead-letter queue. */
  retryAttempts: 10,
  /** Records older than this are given up without an attempt: a fan-out this far behind is late anyway, and the sweep catches up. Under the stream's 24 h. */
  maxRecordAgeSeconds: 3600,
  /** A batch whose invocation fails as a whole (a crash, a timeout) is split in two, to find the record that causes it. */
  bisectBatchOnError: true,
} as const;
