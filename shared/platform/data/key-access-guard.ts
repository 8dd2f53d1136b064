import { DynamoDBServiceException, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { leadingKeyPatterns, type KeyAccessRole } from './key-access.js';
import { leadingKeysOf } from './leading-keys.js';

/** IAM's `StringLike`: `*` is any run of characters, `?` any one; everything else is literal. */
function stringLike(pattern: string): string {
  return [...pattern].map((c) => (c === '*' ? '.*' : c === '?' ? '.' : c.replace(/[.+^${}()|[\]\\]/g, '\\$&'))).join('');
}

/** A key matching any of the patterns: one expression, tested once per key rather than once per pattern. */
function anyOf(patterns: string[]): RegExp {
  return patterns.length ? new RegExp(`^(?:${patterns.map(stringLike).join('|')})$`, 's') : /(?!)/;
}

/**
 * Refuses, as IAM would in AWS, every table request of this client that names a partition key outside
 * the role's patterns (its read patterns for reads, its write patterns for changes), and every operation a
 * role is not granted (Scan among them). Installed on the local stack, where all functions share one process
 * and one DynamoDB Local that nothing else guards.
 *
 * It runs at the build step: the document client marshals its input just before serialization, so
 * from there on every request's input is in the one marshalled shape (`{S: …}`), whichever client sent it.
 */
export function enforceKeyAccess(client: DynamoDBClient, role: KeyAccessRole): void {
  const patterns = { read: anyOf(leadingKeyPatterns(role, 'read')), write: anyOf(leadingKeyPatterns(role, 'write')) };
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const keys = leadingKeysOf(context.commandName, args.input);
      if (!keys) throw accessDenied(`${actionOf(context.commandName)} is not granted to key access role ${role}`);
      // ForAllValues: every key must match one of the patterns of its use.
      const refused = keys.find(({ key, use }) => !patterns[use].test(key));
      if (refused !== undefined) {
        const what = refused.use === 'write' ? 'changing an item' : 'reading an item';
        throw accessDenied(`${actionOf(context.commandName)} ${what} of partition key ${keyPrefix(refused.key)} is not granted to key access role ${role}`);
      }
      return next(args);
    },
    { step: 'build', priority: 'high', name: 'keyAccessGuard' },
  );
}

/** The IAM action of a command, as a refusal names it. */
const actionOf = (commandName: string | undefined) => `dynamodb:${(commandName ?? 'unknown').replace(/Command$/, '')}`;

/** The key up to its first value: names the attribute without showing a secret (a token hash, a license key). */
function keyPrefix(key: string): string {
  const end = key.indexOf('_');
  return end < 0 ? JSON.stringify(key) : `${key.slice(0, end + 1)}…`;
}

/** The error the SDK raises when IAM refuses a DynamoDB request. */
function accessDenied(message: string): DynamoDBServiceException {
  return new DynamoDBServiceException({ name: 'AccessDeniedException', $fault: 'client', $metadata: { httpStatusCode: 400 }, message });
}
