import type { MiddlewareObj } from '@middy/core';
import { ForbiddenError } from '../errors.js';
import { hasOriginSecret } from './client-address.js';
import type { HttpEvent, HttpResult } from './types.js';

export const NOT_THROUGH_FRONT_DOOR = "Requests must come through the service's public address";

/**
 * The front door's secret for an HTTP function that reads no other setting (the reference docs): read as
 * `shared/platform/config.ts` reads it, without loading the schema library into a bundle that has no other use for it.
 */
export const originVerifyTokenOf = (env: NodeJS.ProcessEnv = process.env): string | undefined => env.ORIGIN_VERIFY_TOKEN || undefined;

/**
 * With a front door (CloudFront) in AWS, every request it forwards carries its secret `x-origin-verify` header; one
 * without it came around the front door (the execute-api address), past its firewall and its links, and is refused.
 * Without a token (no front door: `dashboard=false`, or the local runtime given none) every request passes.
 */
export function frontDoorOnly(token: string | undefined): MiddlewareObj<HttpEvent, HttpResult> {
  return {
    before: (request) => {
      if (token && !hasOriginSecret(request.event, token)) throw new ForbiddenError(NOT_THROUGH_FRONT_DOOR);
    },
  };
}
