import { errorChain, type ErrorLink } from '../errors.js';

/** One error of a log record, with the error it wraps as `cause`: the whole chain, each link's own fields. */
export type ErrorDetails = {
  name?: string;
  message?: string;
  /** Node's (`ECONNREFUSED`) or ElectroDB's (4001) code. */
  code?: string | number;
  /** An AWS SDK error's HTTP status, request id and fault side (`client` or `server`). */
  httpStatusCode?: number;
  requestId?: string;
  fault?: string;
  stack?: string | string[];
  cause?: ErrorDetails;
};

function linkDetails(link: ErrorLink, stackAsLines: boolean): ErrorDetails {
  if (typeof link !== 'object') return { message: String(link) };
  const { $metadata } = link;
  return {
    name: link.name,
    message: link.message,
    code: link.code,
    httpStatusCode: $metadata?.httpStatusCode,
    requestId: $metadata?.requestId,
    fault: link.$fault,
    stack: stackAsLines ? link.stack?.split('\n').map((line) => line.trim()) : link.stack,
  };
}

/**
 * What a log record says about `error`: every link of its cause chain, outermost first (ElectroDB's
 * error, then the SDK's inside it), with chosen fields only. An SDK error also holds the raw HTTP
 * response and a condition failure the item itself: neither belongs in a log.
 */
export function errorDetails(error: unknown, options: { stackAsLines?: boolean } = {}): ErrorDetails {
  const links = errorChain(error).map((link) => linkDetails(link, options.stackAsLines ?? false));
  if (links.length === 0) return { message: String(error) };
  return links.reduceRight((cause, link) => ({ ...link, cause }));
}
