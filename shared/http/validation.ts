import { z } from 'zod';
import { BadRequestError } from '../errors.js';

type Detail = { path: string; message: string };

function describe(issue: z.core.$ZodIssue): Detail {
  const path = issue.path.map(String).join('.');
  if (issue.code === 'unrecognized_keys') {
    return { path, message: `Unknown field${issue.keys.length > 1 ? 's' : ''}: ${issue.keys.join(', ')}` };
  }
  if (issue.code === 'invalid_type' && issue.message.endsWith('received undefined')) {
    return { path, message: `${path} is required` };
  }
  return { path, message: path ? `${path}: ${issue.message}` : issue.message };
}

/** Parses with a zod schema; failures become a 400 whose `error` names the first problem. */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.infer<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const details = result.error.issues.map(describe);
  throw new BadRequestError(details[0]?.message ?? 'Invalid request', details);
}
