import * as z from 'zod/mini';
import { lazily } from '../../shared/platform/index.js';
import { requiredText } from '../../shared/platform/http/index.js';
import { MAX_MACHINE_LENGTH, TAURI_ARCHES, TAURI_TARGETS } from '../../shared/licensing/index.js';
import { PLATFORMS } from '../../shared/catalog/index.js';

const oneOf = (field: string, values: readonly string[]) => ({ error: `${field} must be one of ${values.join(', ')}` });

/** The desktop feeds' schemas (functions/edge/feed-routes.ts), built with the first request or listing that reads one. */
export const feedSchemas = lazily(() => {
  const slug = z.string().check(z.regex(/^[a-z0-9-]{1,128}$/, 'slug must be a product slug'));
  return {
    query: z.object({
      license_key: requiredText('license_key', 256),
      machine: z.optional(z.string().check(z.regex(new RegExp(`^[\\x20-\\x7e]{1,${MAX_MACHINE_LENGTH}}$`), `machine must be 1–${MAX_MACHINE_LENGTH} printable characters`))),
    }),
    feedPath: z.object({ slug }),
    tauriPath: z.object({
      slug,
      target: z.enum(TAURI_TARGETS, oneOf('target', TAURI_TARGETS)),
      arch: z.enum(TAURI_ARCHES, oneOf('arch', TAURI_ARCHES)),
      current_version: z.string().check(z.maxLength(64, 'current_version must be at most 64 characters'), z.regex(/^v?\d+(\.\d+)*([-+.~_]?[0-9A-Za-z]+)*$/, 'current_version must be a version such as 1.2.3')),
    }),
    filePath: z.object({
      platform: z.enum(PLATFORMS, oneOf('platform', PLATFORMS)),
      fileName: z.string().check(z.regex(/^[A-Za-z0-9._-]{1,120}$/, 'fileName must be a file name')),
    }),
  };
});
