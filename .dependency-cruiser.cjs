/**
 * The layering of `shared/` (docs/architecture.md), checked by dependency-cruiser in `npm run lint`.
 *
 * CONTEXT_DEPENDENCIES is the one table of which bounded context may import which: a context imports only the
 * contexts listed for it, and only through their `index.ts` (platform: `shared/platform/index.ts` or one of its
 * libraries' `index.ts`). The table is a DAG from `platform` (which imports no context) up to `portability`;
 * docs/architecture.md draws it (test/unit/platform/architecture.test.ts holds the two together).
 */
const CONTEXT_DEPENDENCIES = {
  platform: [],
  messaging: ['platform'],
  identity: ['platform', 'messaging'],
  catalog: ['platform', 'messaging'],
  insights: ['platform', 'catalog'],
  customers: ['platform', 'messaging'],
  licensing: ['platform', 'messaging', 'catalog', 'insights', 'customers'],
  billing: ['platform', 'messaging', 'identity', 'catalog', 'insights', 'customers', 'licensing'],
  portal: ['platform', 'messaging', 'identity', 'catalog', 'insights', 'customers', 'licensing', 'billing'],
  portability: ['platform', 'messaging', 'identity', 'catalog', 'customers', 'licensing'],
};

const CONTEXTS = Object.keys(CONTEXT_DEPENDENCIES);
/** A context's public surface: its index.ts; platform's, its own and each of its libraries'. */
const SURFACE = ['^shared/[^/]+/index\\.ts$', '^shared/platform/[^/]+/index\\.ts$'];

const layerRules = CONTEXTS.map((context) => {
  const others = CONTEXTS.filter((other) => other !== context && !CONTEXT_DEPENDENCIES[context].includes(other));
  return {
    name: `context-${context}`,
    comment: `${context} may import only ${CONTEXT_DEPENDENCIES[context].join(', ') || 'no context'} (.dependency-cruiser.cjs, docs/architecture.md)`,
    severity: 'error',
    from: { path: `^shared/${context}/` },
    to: { path: `^shared/(${others.join('|')})/` },
  };
});

const config = {
  forbidden: [
    ...layerRules,
    {
      name: 'through-index',
      comment: 'another context, or a function, reaches a context only through its index.ts (docs/architecture.md)',
      severity: 'error',
      from: { path: '^(shared/([^/]+)/|functions/)' },
      to: { path: '^shared/([^/]+)/', pathNot: [...SURFACE, '^shared/$2/'] },
    },
    {
      name: 'no-circular',
      comment: 'no import cycle, between contexts or inside one',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)node_modules/' },
    enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.mts', '.cts'] },
  },
};

module.exports = config;
// dependency-cruiser checks its configuration's shape: the table rides along unenumerated, for the architecture test.
Object.defineProperty(module.exports, 'CONTEXT_DEPENDENCIES', { value: CONTEXT_DEPENDENCIES, enumerable: false });
