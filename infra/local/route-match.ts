import type { RouteSpec } from '../routes.js';

export type RouteMatch = { route: RouteSpec; pathParameters: Record<string, string> };

function compile(path: string): { regex: RegExp; literalSegments: number; greedy: boolean } {
  const segments = path.split('/').filter(Boolean);
  let greedy = false;
  const parts = segments.map((segment) => {
    const param = /^\{([^}+]+)(\+)?\}$/.exec(segment);
    if (!param) return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    if (param[2]) {
      greedy = true;
      return `(?<${param[1]}>.+)`;
    }
    return `(?<${param[1]}>[^/]+)`;
  });
  return { regex: new RegExp(`^/${parts.join('/')}/?$`), literalSegments: segments.filter((s) => !s.startsWith('{')).length, greedy };
}

/** Paths whose selection is remembered: a benchmark's or a client's few hot paths, never unbounded. */
const REMEMBERED_PATHS = 1_000;

/**
 * API Gateway's route selection: a route without a greedy `{proxy+}` beats one with it, more literal
 * segments beat fewer, and an exact method beats `ANY`. Each selection is remembered (every route's pattern
 * is tried to find it); each request gets path parameters of its own.
 */
export function createRouteMatcher(routes: RouteSpec[]) {
  const compiled = routes.map((route) => ({ route, ...compile(route.path) }));
  const remembered = new Map<string, RouteMatch | undefined>();
  const select = (method: string, path: string): RouteMatch | undefined => {
    let best: { match: RouteMatch; score: number } | undefined;
    for (const candidate of compiled) {
      if (candidate.route.method !== 'ANY' && candidate.route.method !== method) continue;
      const found = candidate.regex.exec(path);
      if (!found) continue;
      const score = (candidate.greedy ? 0 : 10_000) + candidate.literalSegments * 10 + (candidate.route.method === 'ANY' ? 0 : 1);
      if (!best || score > best.score) {
        best = { match: { route: candidate.route, pathParameters: { ...found.groups } }, score };
      }
    }
    return best?.match;
  };
  return (method: string, path: string): RouteMatch | undefined => {
    const key = `${method} ${path}`;
    let found = remembered.get(key);
    if (found === undefined && !remembered.has(key)) {
      found = select(method, path);
      if (remembered.size >= REMEMBERED_PATHS) remembered.clear();
      remembered.set(key, found);
    }
    return found && { route: found.route, pathParameters: { ...found.pathParameters } };
  };
}
