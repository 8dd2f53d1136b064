import { readFileSync } from 'node:fs';
import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { docsRoutes } from '../../../functions/docs/app.js';
import { edgeRoutes } from '../../../functions/edge/app.js';
import { createManagementDeps, managementRoutes } from '../../../functions/management/app.js';
import { createPortalRoutes } from '../../../functions/portal/app.js';
import { publicRoutes } from '../../../functions/public/app.js';
import { stripeWebhookRoutes } from '../../../functions/stripe-webhook/app.js';
import { generateOpenApiDocument, serializeOpenApi } from '../../../infra/openapi.js';
import { createRouteMatcher } from '../../../infra/local/route-match.js';
import { isReadableCompanion, ROUTES } from '../../../infra/routes.js';
import { ALL_CONFIG_SECTIONS, loadConfig } from '../../../shared/platform/config.js';
import { EVENT_TYPES } from '../../../shared/messaging/events/event-types.js';
import type { Route } from '../../../shared/platform/http/route.js';
import { buildDocument } from '../../../shared/platform/openapi/document.js';
import { defineOperations } from '../../../shared/platform/openapi/operation.js';
import { schemaValidator } from '../../support/openapi.js';

type Json = Record<string, any>;

const document = generateOpenApiDocument() as Json;
const committed = readFileSync(new URL('../../../docs/openapi.json', import.meta.url), 'utf8');
const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

/** Every route each surface's app serves, built as the handlers build them. */
function allRoutes(): Route[] {
  const deps = createManagementDeps(loadConfig({ TABLE_NAME: 'table', RUNTIME: 'local' }, ALL_CONFIG_SECTIONS));
  return [
    ...managementRoutes(deps),
    ...edgeRoutes(deps),
    ...publicRoutes(deps),
    ...createPortalRoutes(deps),
    ...stripeWebhookRoutes(deps),
    ...docsRoutes(() => Buffer.alloc(0)),
  ];
}

describe('the OpenAPI document', () => {
  it('is committed as generated (run `npm run openapi` after changing a route or its docs)', () => {
    expect(committed === serializeOpenApi(document), 'docs/openapi.json is stale: run `npm run openapi` and commit it').toBe(true);
  });

  it('validates as OpenAPI 3.1', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(document));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('has an operation for every route of every surface, and for every entry of the route table', () => {
    const routes = allRoutes();
    const missing = routes.filter((route) => !document.paths[route.path]?.[route.method.toLowerCase()]).map((route) => `${route.method} ${route.path}`);
    expect(missing).toEqual([]);
    const operations = Object.entries(document.paths as Json).flatMap(([path, item]) => METHODS.filter((m) => item[m]).map((m) => `${m.toUpperCase()} ${path}`));
    expect(operations.sort()).toEqual(routes.map((route) => `${route.method} ${route.path}`).sort());
    const match = createRouteMatcher(ROUTES);
    const used = new Set(routes.map((route) => match(route.method, route.path.replace(/\{[^}]+\}/g, 'x'))?.route));
    expect(ROUTES.filter((entry) => !isReadableCompanion(entry) && !used.has(entry))).toEqual([]);
  });

  it('fails to generate when a route has no operation, or an operation no route', () => {
    const route: Route = { method: 'GET', path: '/api/undocumented', handler: async () => ({ statusCode: 204 }) };
    const surface = (routes: Route[], operations: Json) => ({
      tag: { name: 'Test', description: '' },
      routes,
      operations,
      security: () => [[]],
      errors: () => ({}),
    });
    const input = (routes: Route[], operations: Json) => ({
      info: { title: 't', version: '0', description: '' },
      surfaces: [surface(routes, operations)],
      webhooks: { tag: { name: 'Webhooks', description: '' }, rules: '', events: [] },
    });
    expect(() => buildDocument(input([route], {}))).toThrow(/GET \/api\/undocumented: a route of Test without an operation/);
    const operations = defineOperations({ 'GET /api/gone': { summary: 'Gone', responses: { 204: { description: 'No content' } } } });
    expect(() => buildDocument(input([], operations))).toThrow(/GET \/api\/gone: documented under Test, but no such route/);
  });

  /** Registering (and whether one may), signing in and out, and OAuth sign-in are open routes. */
  const OPEN_AUTH_PATHS = ['/api/auth/registration', '/api/auth/register', '/api/auth/login', '/api/auth/logout', '/api/auth/verify-email'];
  const SESSION_ONLY = [
    'POST /api/api-keys', 'DELETE /api/api-keys/{id}', 'POST /api/auth/change-password', 'PUT /api/auth/me', 'POST /api/auth/verify-email/resend',
    // A person's own steps between tenants (DECISIONS §17): a key acts for one tenant, not a person.
    'POST /api/auth/switch-tenant', 'POST /api/team/invitations/{token}/accept',
    // Changing the team and connecting a payment provider (DECISIONS §20): a leaked key must not outlive its revocation.
    'POST /api/team/invitations', 'DELETE /api/team/invitations/{id}', 'PUT /api/team/members/{userId}', 'DELETE /api/team/members/{userId}',
    'PUT /api/payment-provider',
  ];

  it('documents every operation with a summary, a success answer, its errors and its security', () => {
    for (const [path, item] of Object.entries(document.paths as Json)) {
      for (const method of METHODS.filter((m) => item[m])) {
        const operation = item[method];
        const label = `${method.toUpperCase()} ${path}`;
        expect(operation.summary, label).toBeTruthy();
        expect(operation.tags, label).toHaveLength(1);
        expect(Array.isArray(operation.security), label).toBe(true);
        const statuses = Object.keys(operation.responses).map(Number);
        expect(statuses.some((status) => status < 400), label).toBe(true);
        if (path.startsWith('/api/') && !path.startsWith('/api/oauth/') && !OPEN_AUTH_PATHS.includes(path)) {
          expect(statuses, label).toContain(401);
          // The account's own credentials take a session only; an API key there is 403 (DECISIONS §13).
          const sessionOnly = SESSION_ONLY.includes(label);
          expect(operation.security, label).toEqual(sessionOnly ? [{ sessionCookie: [] }] : [{ sessionCookie: [] }, { secretKey: [] }]);
          if (sessionOnly) expect(statuses, label).toContain(403);
        }
        if (path.startsWith('/v1/portal/')) expect(operation.security, label).toEqual([{ secretKey: [] }]);
        if (/\{[^}]+\}/.test(path) && !path.startsWith('/docs/')) expect(statuses, label).toContain(404);
      }
    }
  });

  it('gives the exact messages of DECISIONS for the license operations', () => {
    const examples = (path: string, status: number) => {
      const responses = document.paths[path].post.responses;
      const response = responses[status].$ref ? document.components.responses[responses[status].$ref.split('/').pop()] : responses[status];
      return Object.values(response.content['application/json'].examples as Json).map((example: Json) => example.value.error);
    };
    expect(examples('/public/v1/licenses/validate', 404)).toEqual(['Invalid public_key', 'License key not found']);
    expect(examples('/public/v1/licenses/activate', 400)).toEqual(
      expect.arrayContaining(['License seat limit reached', 'License has expired', 'License is suspended', 'License has been revoked', 'License does not belong to this product']),
    );
    expect(examples('/v1/licenses/deactivate', 400)).toEqual(expect.arrayContaining(['Activation not found', 'domain, machine or activation_id is required']));
  });

  it('documents every outbound event with its payload and the Standard Webhooks headers', () => {
    expect(Object.keys(document.webhooks)).toEqual([...EVENT_TYPES, 'webhook.test']);
    for (const [type, item] of Object.entries(document.webhooks as Json)) {
      const headers = item.post.parameters.filter((parameter: Json) => parameter.in === 'header').map((parameter: Json) => parameter.name);
      expect([type, headers]).toEqual([type, ['webhook-id', 'webhook-timestamp', 'webhook-signature']]);
    }
  });

  it('describes the security schemes of every surface', () => {
    expect(document.components.securitySchemes).toMatchObject({
      sessionCookie: { type: 'apiKey', in: 'cookie', name: 'session' },
      secretKey: { type: 'http', scheme: 'bearer' },
      publicKey: { type: 'apiKey', name: 'public_key' },
    });
    expect(document.paths['/public/v1/plans'].get.security).toEqual([{ publicKey: [] }]);
    expect(document.paths['/v1/licenses/validate'].post.security).toEqual([{}]);
  });

  describe('examples', () => {
    const { errorsOf, resolveResponse } = schemaValidator(document);
    type Case = { operation: string; where: string; schema: Json; value: unknown };
    const cases: Case[] = [];
    const operationExamples = (label: string, operation: Json) => {
      const add = (where: string, schema: Json, value: unknown) => cases.push({ operation: label, where, schema, value });
      const mediaExamples = (where: string, media: Json | undefined) => {
        if (!media?.schema) return;
        for (const [name, example] of Object.entries((media.examples ?? {}) as Json)) add(`${where} ${name}`, media.schema, example.value);
        if (media.example !== undefined) add(`${where} example`, media.schema, media.example);
      };
      for (const parameter of operation.parameters ?? []) {
        if (parameter.example !== undefined) add(`parameter ${parameter.name}`, parameter.schema, parameter.example);
      }
      for (const [type, media] of Object.entries((operation.requestBody?.content ?? {}) as Json)) {
        if (type === 'application/json') mediaExamples('request', media);
      }
      for (const [status, response] of Object.entries(operation.responses as Json)) {
        mediaExamples(status, resolveResponse(response).content?.['application/json']);
      }
    };
    for (const [path, item] of Object.entries(document.paths as Json)) {
      for (const method of METHODS.filter((m) => item[m])) operationExamples(`${method.toUpperCase()} ${path}`, item[method]);
    }
    for (const [type, item] of Object.entries(document.webhooks as Json)) operationExamples(`webhook ${type}`, item.post);

    it('are many: every operation has some', () => {
      expect(cases.length).toBeGreaterThan(300);
    });

    const operations = [...new Set(cases.map((c) => c.operation))];
    it.each(operations)('of %s validate against their schemas', (operation) => {
      const failures = cases.filter((c) => c.operation === operation).map((c) => ({ where: c.where, errors: errorsOf(c.schema, c.value) }));
      expect(failures.filter((failure) => failure.errors.length)).toEqual([]);
    });

    it('fail validation when they do not match (the check can fail)', () => {
      const license = { $ref: '#/components/schemas/License' };
      expect(errorsOf(license, { id: 'lic_x' })).not.toEqual([]);
      expect(errorsOf({ $ref: '#/components/schemas/ValidLicense' }, { valid: true, license: {}, product: {}, extra: 1 })).not.toEqual([]);
    });
  });

  it('reads request schemas from the routes themselves', () => {
    // The body of POST /api/licenses in the document is the route's own zod schema.
    const route = allRoutes().find((r) => r.method === 'POST' && r.path === '/api/licenses')!;
    const body = document.paths['/api/licenses'].post.requestBody.content['application/json'].schema;
    expect(Object.keys(body.properties).sort()).toEqual(Object.keys((route.input!.body as z.core.$ZodObject)._zod.def.shape).sort());
    expect(body.required).toEqual(['productId', 'customerEmail']);
    expect(body.additionalProperties).toBe(false);
  });
});
