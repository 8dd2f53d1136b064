import * as z from 'zod/mini';
import { defineOperations, described } from '../../shared/platform/openapi/index.js';

export const docsOperations = defineOperations({
  'GET /openapi.json': {
    summary: 'This document',
    description: 'The OpenAPI 3.1 document of every surface, generated from the route table and the zod schemas the handlers use (`npm run openapi`).',
    security: [[]],
    responses: {
      200: {
        description: 'The document',
        body: described(z.looseObject({ openapi: z.string(), info: z.looseObject({}), paths: z.looseObject({}) }), 'An OpenAPI 3.1 document.'),
        examples: { document: { openapi: '3.1.0', info: { title: 'Licensing service API', version: '0.1.0' }, paths: {} } },
      },
    },
  },
  'GET /docs': {
    summary: 'Reference docs (this page)',
    description: 'Browsable reference docs of this document, rendered by Swagger UI served by the service itself: no request leaves the service.',
    security: [[]],
    responses: { 200: { description: 'The page', html: '<!doctype html><html lang="en">…<div id="swagger-ui"></div>…</html>' } },
  },
  'GET /docs/{asset}': {
    summary: "The reference page's files",
    description: "Swagger UI's script and style sheet, and the page's start script.",
    security: [[]],
    pathParameters: {
      asset: {
        schema: z.enum(['swagger-ui-bundle.js', 'swagger-ui-bundle.js.LICENSE.txt', 'swagger-ui.css', 'init.js']),
        description: 'The file',
        example: 'swagger-ui.css',
      },
    },
    responses: { 200: { description: 'The file (JavaScript, CSS or text)' } },
    errors: { 404: ['Not found'] },
  },
});
