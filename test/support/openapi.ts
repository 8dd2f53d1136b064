import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

type Json = Record<string, any>;

const DOCUMENT_ID = 'https://licensing.invalid/openapi.json';
// ajv-formats is CommonJS: its default export arrives wrapped under ESM interop.
const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule) as typeof addFormatsModule;

/** `#/components/…` pointers of the document, made absolute so that ajv finds them in the document's schema. */
function absoluteRefs(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(absoluteRefs);
  if (!value || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, inner]) => [key, key === '$ref' && typeof inner === 'string' && inner.startsWith('#/') ? `${DOCUMENT_ID}${inner}` : absoluteRefs(inner)]),
  );
}

/** Validates values against the schemas of an OpenAPI 3.1 document (JSON Schema 2020-12, with formats). */
export function schemaValidator(document: Json) {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema({ $id: DOCUMENT_ID, components: absoluteRefs(document.components) });
  const compiled = new Map<string, ValidateFunction>();

  /** The errors of `value` against `schema` (a schema of the document), empty when it is valid. */
  function errorsOf(schema: Json, value: unknown): string[] {
    const key = JSON.stringify(schema);
    let validate = compiled.get(key);
    if (!validate) {
      validate = ajv.compile(absoluteRefs(schema) as Json);
      compiled.set(key, validate);
    }
    return validate(value) ? [] : (validate.errors ?? []).map((error) => `${error.instancePath || '/'} ${error.message} ${JSON.stringify(error.params)}`);
  }

  /** A `components.responses` reference resolved. */
  const resolveResponse = (response: Json): Json =>
    response.$ref ? document.components.responses[response.$ref.replace('#/components/responses/', '')] : response;

  return { errorsOf, resolveResponse };
}

/** Path templates of the document, most specific first, as API Gateway would choose among them. */
export function operationFinder(document: Json) {
  const templates = Object.keys(document.paths)
    .map((template) => ({
      template,
      regex: new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`),
      literal: template.split('/').filter((segment) => segment && !segment.startsWith('{')).length,
    }))
    .sort((a, b) => b.literal - a.literal);
  return (method: string, path: string): { template: string; operation: Json } | undefined => {
    const pathOnly = path.split('?')[0]!;
    for (const { template, regex } of templates) {
      const operation = document.paths[template]?.[method.toLowerCase()];
      if (operation && regex.test(pathOnly)) return { template, operation };
    }
    return undefined;
  };
}
