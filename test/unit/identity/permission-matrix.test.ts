import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createManagementDeps, managementRoutes } from '../../../functions/management/app.js';
import { MATRIX_END, MATRIX_START, permissionMatrix } from '../../../functions/management/permission-matrix.js';
import { ALL_CONFIG_SECTIONS, loadConfig } from '../../../shared/platform/config.js';
import { PERMISSIONS, ROLE_PERMISSIONS } from '../../../shared/identity/teams/roles.js';

const routes = managementRoutes(createManagementDeps(loadConfig({ TABLE_NAME: 'table', RUNTIME: 'local' }, ALL_CONFIG_SECTIONS)));
const label = (route: { method: string; path: string }) => `${route.method} ${route.path}`;
/** The routes anyone may call: signing up (and whether one may) and in, the verification link, OAuth, health. */
const OPEN = /^(POST \/api\/auth\/(register|login|logout)|GET \/api\/auth\/(verify-email|registration)|GET \/api\/oauth\/|GET \/health)/;

describe('the permission table (DECISIONS §17)', () => {
  it('gives every management route a permission', () => {
    expect(routes.filter((r) => !OPEN.test(label(r)) && !r.input?.permission).map(label)).toEqual([]);
  });

  it('is docs/api.md\'s route × role matrix, as the code generates it (`npm run openapi`)', () => {
    const doc = readFileSync(new URL('../../../docs/api.md', import.meta.url), 'utf8');
    const committed = doc.slice(doc.indexOf(MATRIX_START), doc.indexOf(MATRIX_END) + MATRIX_END.length);
    expect(committed).toBe(permissionMatrix(routes));
  });

  it('gives the owner and admins everything, support and viewers no change beyond their desk, and no role an unknown permission', () => {
    const all = Object.keys(PERMISSIONS);
    expect([...ROLE_PERMISSIONS.owner].sort()).toEqual([...all].sort());
    expect([...ROLE_PERMISSIONS.viewer].sort()).toEqual(['account', 'read']);
    expect([...ROLE_PERMISSIONS.developer]).not.toContain('paymentProvider');
    expect([...ROLE_PERMISSIONS.developer]).not.toContain('team');
    expect([...ROLE_PERMISSIONS.support]).not.toContain('readSecrets');
  });
});
