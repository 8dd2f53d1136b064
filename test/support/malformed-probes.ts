import * as z from 'zod/mini';
import type { Route } from '../../shared/platform/http/route.js';
import { ID_PREFIXES, newId, type IdPrefix } from '../../shared/platform/ids.js';

/** One request of the sweep; every one of them is invalid, so none may write. */
export type Probe = { label: string; method: string; path: string; body?: string | Buffer; contentType?: string };

/** Real things the sweep's requests point at, so that only the malformed part of a request is wrong. */
export type SweepTargets = {
  /** A real id of each kind the fixtures made; other kinds get a well-formed id of nothing. */
  ids: Partial<Record<IdPrefix, string>>;
  licenseKey: string;
  publicKey: string;
  /** The product's slug (feeds name their product by it). */
  slug: string;
};

/** A key shaped like a license key that no license has. */
export const UNKNOWN_LICENSE_KEY = 'NOPE-AAAA-BBBB-CCCC-DDDD';
/** A field no `/api` body takes: with it, a body is refused whatever its other fields hold. */
const UNKNOWN_FIELD = 'sweep_unknown_field';

/** JSON text nested `levels` deep, written out directly: JSON.stringify would run out of stack. */
const nestedJson = (levels: number) => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;
const LONG_TEXT = 'x'.repeat(10_000);
export const LONG_DOMAIN = `${'a.'.repeat(999)}io`;
const LONG_LABEL_DOMAIN = `${'a'.repeat(64)}.example.com`;

/** Values of the wrong type or size for any field, as JSON text. */
const WRONG_VALUES: [string, string][] = [
  ['an object', '{"nested":true}'],
  ['an array', '["x"]'],
  ['a boolean', 'true'],
  ['a number', '12345'],
  ['a negative number', '-1'],
  ['null', 'null'],
  ['an empty string', '""'],
  ['10,000 characters', JSON.stringify(LONG_TEXT)],
  ['5,000 levels of nesting', nestedJson(5000)],
  ['a 2,000-character domain', JSON.stringify(LONG_DOMAIN)],
];

/** Fields of an object schema (the part that reads input when it is piped). */
export function fieldsOf(schema: z.core.$ZodType | undefined): string[] {
  if (schema instanceof z.core.$ZodObject) return Object.keys(schema._zod.def.shape);
  if (schema instanceof z.core.$ZodPipe) return fieldsOf(schema._zod.def.in);
  return [];
}

export const pathParams = (path: string) => [...path.matchAll(/\{([^}+]+)\}/g)].map((match) => match[1]!);

export function fillPath(path: string, values: Record<string, string>): string {
  return path.replace(/\{([^}+]+)\}/g, (_whole, name: string) => values[name]!);
}

/** Working values of the path parameters that are not ids (a route's `input.path`), by name. */
const PATH_TEXT_VALUES: Record<string, (targets: SweepTargets) => string> = {
  slug: (targets) => targets.slug,
  target: () => 'linux',
  arch: () => 'x86_64',
  current_version: () => '1.0.0',
  platform: () => 'linux-x64',
  fileName: () => 'app.deb',
  // The Composer repository's names (read from the path by its handler): a vendor and package of nothing.
  vendor: () => 'no-such-vendor',
  package: () => 'no-such-package',
  file: () => 'no-such-package.json',
};

/** A path parameter that is not an id: one the route's `input.path` schema reads, or its handler reads from the path. */
const isTextParam = (route: Route, param: string) => route.input?.pathIds?.[param] === undefined;

function kindOf(route: Route, param: string): IdPrefix {
  const prefix = route.input?.pathIds?.[param]?.prefix;
  if (!prefix) throw new Error(`${route.method} ${route.path}: {${param}} has no id kind`);
  return prefix;
}

function realParam(route: Route, param: string, targets: SweepTargets): string {
  if (isTextParam(route, param)) {
    const value = PATH_TEXT_VALUES[param];
    if (!value) throw new Error(`${route.method} ${route.path}: {${param}} has no working value in the sweep`);
    return value(targets);
  }
  return targets.ids[kindOf(route, param)] ?? newId(kindOf(route, param));
}

/** Each path parameter of the route as a real id of its kind (or a well-formed id of nothing), or a working value. */
export function realParams(route: Route, targets: SweepTargets): Record<string, string> {
  return Object.fromEntries(pathParams(route.path).map((param) => [param, realParam(route, param, targets)]));
}

/** Raw path segments that no path value (a slug, a platform, a version, a file name) takes. */
const MALFORMED_TEXTS: [string, string][] = [
  ['bad percent-encoding', '%E0%A4%A'],
  ['a lone percent sign', 'x%'],
  ['an encoded slash', 'a%2Fb'],
  ['encoded non-ASCII', '%C3%A9'.repeat(24)],
  ['upper case and spaces', 'NOT%20A%20VALUE'],
  ['5,000 characters', 'a'.repeat(5000)],
];

/** Query fields a route needs to get as far as its path ids, with working values. */
export function workingQuery(route: Route, targets: SweepTargets): string {
  const working: Record<string, string> = { license_key: targets.licenseKey };
  const fields = fieldsOf(route.input?.query).filter((field) => field in working);
  return fields.length ? `?${new URLSearchParams(fields.map((field): [string, string] => [field, working[field]!]))}` : '';
}

/** Raw path segments that cannot be an id of kind `prefix`, whatever exists. */
export function malformedIds(prefix: IdPrefix, targets: SweepTargets): [string, string][] {
  const other = ID_PREFIXES.find((candidate) => candidate !== prefix && targets.ids[candidate]) ?? 'usr';
  return [
    ['bad percent-encoding', '%E0%A4%A'],
    ['a lone percent sign', 'x%'],
    ['a real id of another kind', targets.ids[other] ?? newId(other)],
    ['one character short', `${prefix}_${'a'.repeat(23)}`],
    ['one character long', `${prefix}_${'a'.repeat(25)}`],
    ['upper case', `${prefix}_${'A'.repeat(24)}`],
    ['an encoded slash', `${prefix}_${'a'.repeat(11)}%2F${'a'.repeat(12)}`],
    ['encoded non-ASCII', `${prefix}_${'%C3%A9'.repeat(24)}`],
    ['5,000 characters', `${prefix}_${'a'.repeat(4996)}`],
  ];
}

function pathProbes(route: Route, targets: SweepTargets): Probe[] {
  const real = realParams(route, targets);
  return pathParams(route.path).flatMap((param) =>
    (isTextParam(route, param) ? MALFORMED_TEXTS : malformedIds(kindOf(route, param), targets)).map(([label, raw]) => ({
      label: `{${param}}: ${label}`,
      method: route.method,
      path: fillPath(route.path, { ...real, [param]: raw }) + workingQuery(route, targets),
    })),
  );
}

const json = (value: unknown) => JSON.stringify(value);
const PLACEHOLDER = '\u0000value';
/** `base` as JSON with `field` set to the JSON text `valueJson`. */
const withField = (base: Record<string, unknown>, field: string, valueJson: string) =>
  json({ ...base, [field]: PLACEHOLDER }).replace(json(PLACEHOLDER), () => valueJson);

/** Bodies no route takes: not JSON, not an object, another type, too large, too deep. */
const MALFORMED_BODIES: [string, string | Buffer, string][] = [
  ['truncated JSON', '{"a":', 'application/json'],
  ['a JSON number', '42', 'application/json'],
  ['a JSON string', '"text"', 'application/json'],
  ['JSON null', 'null', 'application/json'],
  ['JSON true', 'true', 'application/json'],
  ['an empty array', '[]', 'application/json'],
  ['an array of objects', '[{"name":"x"}]', 'application/json'],
  ['bytes that are not UTF-8', Buffer.from([0xff, 0xfe, 0x7b, 0x7d]), 'application/json'],
  ['text/plain', 'name=x', 'text/plain'],
  ['a form', 'name=x&email=a%40b.c', 'application/x-www-form-urlencoded'],
  ['JSON over 256 KB', json({ pad: 'x'.repeat(300 * 1024) }), 'application/json'],
  ['5,000 levels of objects', nestedJson(5000), 'application/json'],
  ['5,000 levels of arrays', `${'['.repeat(5000)}${']'.repeat(5000)}`, 'application/json'],
  ['prototype keys', '{"__proto__":{"admin":true},"constructor":{"prototype":{"admin":true}}}', 'application/json'],
];

function bodyProbes(route: Route, surface: string, targets: SweepTargets): Probe[] {
  const path = fillPath(route.path, realParams(route, targets)) + workingQuery(route, targets);
  const probes: Probe[] = MALFORMED_BODIES.map(([label, body, contentType]) => ({ label: `body: ${label}`, method: route.method, path, body, contentType }));
  // `/api` bodies are strict: an unknown field makes any of them invalid. Edge and public bodies ignore unknown
  // fields, so a key of no license (or, below, a real key with a bad domain) makes them invalid instead.
  const base: Record<string, unknown> =
    surface === 'management' ? { [UNKNOWN_FIELD]: true } : { license_key: UNKNOWN_LICENSE_KEY, public_key: targets.publicKey };
  const fields = fieldsOf(route.input?.body);
  for (const field of fields) {
    for (const [label, value] of WRONG_VALUES) {
      probes.push({ label: `${field}: ${label}`, method: route.method, path, body: withField(base, field, value), contentType: 'application/json' });
    }
  }
  if (surface !== 'management' && fields.includes('domain')) {
    const realKey = { license_key: targets.licenseKey, public_key: targets.publicKey };
    const invalid: [string, Record<string, unknown>][] = [
      ['a 2,000-character domain', { domain: LONG_DOMAIN }],
      ['a 2,000-character site', { site: LONG_DOMAIN }],
      ['a 64-character label', { domain: LONG_LABEL_DOMAIN }],
    ];
    if (fields.includes('activation_id')) invalid.push(['a malformed activation_id', { activation_id: 'act_nope' }]);
    for (const [label, fieldsOfProbe] of invalid) {
      probes.push({ label: `real key, ${label}`, method: route.method, path, body: json({ ...realKey, ...fieldsOfProbe }), contentType: 'application/json' });
    }
  }
  return probes;
}

function queryProbes(route: Route, targets: SweepTargets): Probe[] {
  const fields = fieldsOf(route.input?.query);
  if (!fields.length) return [];
  const path = fillPath(route.path, realParams(route, targets));
  const queries = ['sweep_unknown=1', ...fields.flatMap((field) => [`${field}=${LONG_TEXT}`, `${field}=%E0%A4%A${'x'.repeat(300)}`])];
  if (fields.includes('page')) queries.push('page=-1', 'page=0', 'page=abc', 'page=1.5', 'page=1e3');
  if (fields.includes('per_page')) queries.push('per_page=1e9', 'per_page=-1', 'per_page=0', 'per_page=', 'per_page=%20');
  if (fields.includes('status')) queries.push('status=bogus', 'status=ACTIVE', 'status=active,revoked');
  for (const filter of fields.filter((field) => field.endsWith('_id'))) queries.push(`${filter}=prd_short`, `${filter}=%E0%A4%A`);
  return queries.map((q) => ({ label: `query ${q.slice(0, 40)}`, method: route.method, path: `${path}?${q}` }));
}

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Every malformed request the sweep sends to one route. */
export function probesFor(route: Route, surface: string, targets: SweepTargets): Probe[] {
  return [
    ...pathProbes(route, targets),
    ...(STATE_CHANGING.has(route.method) ? bodyProbes(route, surface, targets) : []),
    ...queryProbes(route, targets),
  ];
}
