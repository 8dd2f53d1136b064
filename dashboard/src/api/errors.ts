/** One field's problem as the service reports it in `details` (`path` is dotted: `events.0`, `price`). */
export type FieldDetail = { path: string; message: string };

/** A refusal of the service: its status, its `error` message and its `details`. Status 0: no answer at all. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly details: FieldDetail[] = [],
  ) {
    super(message);
  }
}

export const isUnauthenticated = (error: unknown) => error instanceof ApiError && error.status === 401;

/** The service's field errors by top-level field name, first message per field. */
export function serverFieldErrors(error: unknown): Record<string, string> {
  const errors: Record<string, string> = {};
  if (!(error instanceof ApiError)) return errors;
  for (const detail of error.details) {
    const field = detail.path.split('.')[0];
    if (field && !(field in errors)) errors[field] = detail.message;
  }
  return errors;
}

export const errorMessage = (error: unknown) => (error instanceof Error ? error.message : String(error));
