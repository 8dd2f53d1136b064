import type { LicenseCandidate } from '../rows.js';

/** A host name, or a URL of one (`example.com`, `https://shop.example.com/`, `localhost:8080`). */
const HOST = /^(?:https?:\/\/)?(?:localhost|[a-z0-9-]+(?:\.[a-z0-9-]+)+)(?::\d{1,5})?(?:\/\S*)?$/i;

/**
 * An activation an API names by a name and an identifier (a Lemon Squeezy instance, a Freemius install), as DECISIONS
 * §27 reads it: a host name as its domain, else the identifier as its `machine` (with the name, when there is one).
 */
export function addActivation(license: Pick<LicenseCandidate, 'domains' | 'machines'>, name: string | undefined, identifier: string): void {
  const host = name?.trim();
  if (host && HOST.test(host)) {
    license.domains.push(host);
    return;
  }
  (license.machines ??= []).push({ machine: identifier, name: host || undefined });
}
