import { inject } from 'vitest';
import { createManagementDeps, managementRoutes } from '../../functions/management/app.js';
import { ALL_CONFIG_SECTIONS, loadConfig } from '../../shared/platform/config.js';
import type { IdKind } from '../../shared/platform/http/id-kind.js';
import type { Route } from '../../shared/platform/http/route.js';
import { newId, type IdPrefix } from '../../shared/platform/ids.js';
import type { Client, Response } from './client.js';
import { fillPath, pathParams } from './malformed-probes.js';
import { snapshotTable, type TableSnapshot } from './table-snapshot.js';

/** The management routes that name a permission (DECISIONS §17), read from the app: a new route is in by itself. */
export const permissionRoutes: Route[] = managementRoutes(
  createManagementDeps(loadConfig({ TABLE_NAME: 'table', RUNTIME: 'local' }, ALL_CONFIG_SECTIONS)),
).filter((route) => route.input?.permission);

/** A well-formed id (or token) of the kind that no item has. */
function nothingOf(kind: IdKind): string {
  const value = kind.shape ? 'a'.repeat(32) : newId(kind.prefix);
  if (kind.shape && !kind.shape.test(value)) throw new Error(`no well-formed value for tokens of ${kind.shape}`);
  return value;
}

/** The route's path with each id the one of its kind in `ids` (never a token), else a well-formed id of nothing. */
export function pathNaming(route: Route, ids: Partial<Record<IdPrefix, string>> = {}): string {
  const kinds = route.input!.pathIds!;
  return fillPath(route.path, Object.fromEntries(pathParams(route.path).map((name) => {
    const kind = kinds[name]!;
    return [name, (!kind.shape && ids[kind.prefix]) || nothingOf(kind)];
  })));
}

/** Sends the route's request as `client`: an empty JSON object as the body of a POST, PUT or PATCH. */
export function sendEmpty(client: Client, route: Route, path: string): Promise<Response> {
  return client.request(route.method, path, { body: ['POST', 'PUT', 'PATCH'].includes(route.method) ? {} : undefined });
}

/** Runs `run` on every item, `size` at a time (the local stack shares the machine). */
export async function inBatches<T, R>(items: T[], run: (item: T) => Promise<R>, size = 20): Promise<R[]> {
  const results: R[] = [];
  for (let start = 0; start < items.length; start += size) results.push(...(await Promise.all(items.slice(start, start + size).map(run))));
  return results;
}

/** When a key was last used: written by authenticating (at most once a minute), whatever the route then answers. */
const KEY_LAST_USED = /"lastUsedAt":"[^"]*",/;

/** The shared stack's items that name one of `ids` (a tenant's, its users'), a key's last use left out. */
export async function itemsNaming(ids: string[]): Promise<TableSnapshot> {
  const all = await snapshotTable(inject('dynamoEndpoint'), inject('tableName'));
  return new Map([...all].filter(([, item]) => ids.some((id) => item.includes(id))).map(([key, item]) => [key, item.replace(KEY_LAST_USED, '')]));
}
