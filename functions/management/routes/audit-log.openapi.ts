import * as z from 'zod/mini';
import { type AuditEntry as AuditEntryView, CHAIN_BREAKS } from '../../../shared/identity/index.js';
import { assertDescribes, defineOperations, EX, exampleId, examplePage, named, pageOf, timestamp } from '../../../shared/platform/openapi/index.js';

const AuditEntry = named(
  'AuditEntry',
  z.object({
    id: z.string(),
    at: timestamp,
    actor: z.object({ type: z.enum(['user', 'apiKey', 'system']), id: z.string(), email: z.optional(z.string()) }),
    action: z.string(),
    target: z.object({ type: z.string(), id: z.string() }),
    changes: z.record(z.string(), z.tuple([z.unknown(), z.unknown()])),
    ip: z.nullable(z.string()),
    userAgent: z.nullable(z.string()),
  }),
  'One change (DECISIONS §17): who (`actor`; `system` for Stripe- and import-driven changes), what (`action`, `target`), and each changed field as ' +
    '`[before, after]` (secrets as `***`). Written in the transaction of the change itself; kept 400 days.',
);
assertDescribes<typeof AuditEntry, AuditEntryView>(true);

const exampleEntry = {
  id: exampleId('aud', 'a'),
  at: EX.updated,
  actor: { type: 'user', id: EX.userId, email: EX.vendorEmail },
  action: 'license.update',
  target: { type: 'license', id: EX.licenseId },
  changes: { seats: [1, 5] },
  ip: '203.0.113.7',
  userAgent: 'Mozilla/5.0',
};

export const auditLogOperations = defineOperations({
  'GET /api/audit-log': {
    summary: 'Read the audit log',
    description: 'Newest first; owner and admin. Filters: `actor_id`, `action`, `target_type`, `target_id`, and `from`/`to` (ISO 8601, inclusive) on `at`.',
    queryExamples: { action: 'license.update', target_type: 'license' },
    responses: { 200: { description: 'A page of entries', body: pageOf('AuditEntryPage', AuditEntry), examples: { page: examplePage([exampleEntry]) } } },
  },
  'GET /api/audit-log/verify': {
    summary: "Check the log's hash chains",
    description:
      'Recomputes every entry\'s `hash = SHA-256(previous hash + canonical JSON of the entry)` along each of the tenant\'s chains. `{ok: false, brokenAt, reason}` names ' +
      'the first entry that was changed, or whose predecessor was removed, and says which. Entries expire after 400 days, so the oldest entry kept ' +
      'may follow one that is gone; but not one younger than that (DECISIONS §20: `reason` is then ' +
      `\`${CHAIN_BREAKS.missingBeforeOldest}\`). \`brokenAt\` is null when every entry is gone but the chain's end says there were some.`,
    responses: {
      200: {
        description: 'The outcome',
        body: named(
          'AuditVerification',
          z.union([
            z.object({ ok: z.literal(true), entries: z.number() }),
            z.object({ ok: z.literal(false), brokenAt: z.nullable(z.string()), reason: z.enum(Object.values(CHAIN_BREAKS) as [string, ...string[]]) }),
          ]),
        ),
        examples: {
          intact: { ok: true, entries: 42 },
          broken: { ok: false, brokenAt: exampleId('aud', 'a'), reason: CHAIN_BREAKS.changed },
          truncated: { ok: false, brokenAt: exampleId('aud', 'b'), reason: CHAIN_BREAKS.missingBeforeOldest },
        },
      },
    },
  },
});
