import { NodeHttpHandler, type NodeHttpHandlerOptions } from '@smithy/node-http-handler';
import type { HttpHandlerOptions } from '@smithy/types';
import { withinDeadline } from '../deadline.js';

/**
 * The AWS clients' HTTP handler: each attempt is cut off at the client's own request timeout or at the invocation's
 * deadline (shared/platform/deadline.ts), whichever comes first, and none starts once the deadline has passed. The
 * deadline's error is not one the SDK retries.
 */
export class DeadlineBoundHttpHandler extends NodeHttpHandler {
  private readonly requestTimeoutMs: number;

  constructor(options: NodeHttpHandlerOptions & { requestTimeout: number }) {
    super(options);
    this.requestTimeoutMs = options.requestTimeout;
  }

  override handle(request: Parameters<NodeHttpHandler['handle']>[0], options: HttpHandlerOptions = {}) {
    return withinDeadline(options.requestTimeout ?? this.requestTimeoutMs, (requestTimeout) => super.handle(request, { ...options, requestTimeout }));
  }
}
