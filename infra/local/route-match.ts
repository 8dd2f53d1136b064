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

/**
 * API Gateway's route selection: a route without a greedy `{proxy+}` beats one with it, more literal
 * segments beat fewer, and an exact method beats `ANY`.
 */
export function createRouteMatcher(routes: RouteSpec[]) {
  const compiled = routes.map((route) => ({ route, ...compile(route.path) }));
  return (method: string, path: string): RouteMatch | undefined => {
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
}
