import { BadRequestError } from '../errors.js';

export const MALFORMED_PATH = 'Malformed percent-encoding in path';

/**
 * Path parameters as the route sees them: percent-decoded, each one once. The router hands them over as
 * they appear in the path; `%E0%A4%A` cannot be decoded and is the client's mistake (400), not a crash.
 */
export function decodePathParameters(raw: Record<string, string | undefined> | undefined): Record<string, string> {
  const decoded: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw ?? {})) {
    try {
      decoded[name] = decodeURIComponent(value ?? '');
    } catch {
      throw new BadRequestError(MALFORMED_PATH);
    }
  }
  return decoded;
}
