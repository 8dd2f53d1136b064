import { deleteItems, transact, writeItem } from '../../platform/data/index.js';
import { roleAtMost, type AssignableRole } from '../teams/roles.js';
import { roleIn } from '../teams/tenant-access.js';
import { type Deps, newId, NotFoundError, randomBase32, sha256Hex } from '../../platform/index.js';
import { logger } from '../../platform/observability/index.js';

type KeyDeps = Pick<Deps, 'data' | 'clock'>;

/** Shown in lists so a vendor can tell keys apart; long enough to be useful, too short to be the key. */
const PREFIX_LENGTH = 12;
/** `lastUsedAt` is written at most this often, so authenticated traffic does not write on every request. */
const LAST_USED_RESOLUTION_MS = 60_000;

export type ApiKeySummary = { id: string; name: string; prefix: string; role: AssignableRole; createdAt: string; lastUsedAt: string | null };

/** Keys made before roles existed act as admins, the default (DECISIONS §17). */
const keyRole = (role: string | undefined) => (role ?? 'admin') as AssignableRole;

/** A key of tenant `userId` with `role`, made by `createdBy`. */
export async function createApiKey(deps: KeyDeps, userId: string, input: { name: string; role: AssignableRole; createdBy: string }) {
  const { name, role } = input;
  const key = `sk_${randomBase32(20)}`;
  const item = {
    keyHash: sha256Hex(key),
    apiKeyId: newId('key'),
    userId,
    name,
    role,
    createdBy: input.createdBy,
    prefix: key.slice(0, PREFIX_LENGTH),
    createdAt: deps.clock.now().toISOString(),
  };
  const outcome = await transact(deps.data, (tx) => ({ key: tx.apiKey.create(item).commit() }));
  // 160 random bits: a key that is already taken means something is badly wrong, not bad luck.
  if (!outcome.committed) throw new Error('API key collision');
  return { id: item.apiKeyId, name, key, prefix: item.prefix, role, createdAt: item.createdAt };
}

export async function listApiKeys(deps: KeyDeps, userId: string): Promise<ApiKeySummary[]> {
  const { data } = await deps.data.entities.apiKey.query.byUser({ userId }).go({ pages: 'all' });
  return data
    .map((k) => ({ id: k.apiKeyId, name: k.name, prefix: k.prefix, role: keyRole(k.role), createdAt: k.createdAt, lastUsedAt: k.lastUsedAt ?? null }))
    .sort((a, b) => b.createdAt.localeCompare(a.createdAt));
}

/** Deleting the hash-keyed item revokes the key at once: authentication reads it strongly consistently. */
export async function revokeApiKey(deps: KeyDeps, userId: string, apiKeyId: string): Promise<void> {
  const { data } = await deps.data.entities.apiKey.query.byUser({ userId, apiKeyId }).go();
  const key = data[0];
  if (!key) throw new NotFoundError('API key not found');
  await transact(deps.data, (tx) => ({ key: tx.apiKey.delete({ keyHash: key.keyHash }).commit() }));
}

/** Revokes every key of a user: an account taken over from whoever registered its address (DECISIONS §13) keeps none of theirs. */
export async function revokeAllApiKeys(deps: KeyDeps, userId: string): Promise<void> {
  const { apiKey } = deps.data.entities;
  const { data } = await apiKey.query.byUser({ userId }).go({ pages: 'all' });
  await deleteItems(
    data.map((key) => ({ keyHash: key.keyHash })),
    (keys) => apiKey.delete(keys).go(),
  );
}

/** Who a secret key belongs to, which of their keys it is (rate limits are per key), and its role. */
export type KeyOwner = { userId: string; apiKeyId: string; role: AssignableRole };

/** The owner of a secret key, or undefined when the key is unknown or revoked. */
export async function resolveApiKey(deps: KeyDeps, key: string): Promise<KeyOwner | undefined> {
  const keyHash = sha256Hex(key);
  const { data } = await deps.data.entities.apiKey.get({ keyHash }).go({ consistent: true });
  if (!data) return undefined;
  const now = deps.clock.now();
  if (!data.lastUsedAt || now.getTime() - Date.parse(data.lastUsedAt) > LAST_USED_RESOLUTION_MS) {
    // Bookkeeping: a key revoked meanwhile is left alone (the write's condition), and a failed write is
    // logged, never the reason a request fails.
    await writeItem(() => deps.data.entities.apiKey.patch({ keyHash }).set({ lastUsedAt: now.toISOString() }).go()).catch((error: unknown) =>
      logger.warn('API key use not recorded', { error }),
    );
  }
  const role = keyRole(data.role);
  if (!data.createdBy || data.createdBy === data.userId) return { userId: data.userId, apiKeyId: data.apiKeyId, role };
  // A member's key acts for them: it ends with their membership and never exceeds their role now (read as a session's is).
  const makerRole = await roleIn(deps, data.createdBy, data.userId);
  if (!makerRole) return undefined;
  return { userId: data.userId, apiKeyId: data.apiKeyId, role: roleAtMost(role, makerRole) ? role : (makerRole as AssignableRole) };
}
