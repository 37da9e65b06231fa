import { z } from 'zod';
import { HttpError } from '../plugins/errors';

/** "company_name" → "Company name" for messages people read. */
export function fieldLabel(path: readonly PropertyKey[]): string {
  const last = [...path].reverse().find((p) => typeof p === 'string') as string | undefined;
  if (!last) return 'Value';
  const words = last
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/_/g, ' ')
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/**
 * Human messages for every schema that does not set its own: "Email is required.",
 * "Limit must be a number.", "Unknown field: foo". Installed once at start-up.
 */
export function installValidationMessages(): void {
  z.config({
    customError: (issue) => {
      const label = fieldLabel(issue.path ?? []);
      switch (issue.code) {
        case 'invalid_type':
          return issue.input === undefined || issue.input === null ? `${label} is required.` : `${label} must be ${article(issue.expected)}.`;
        case 'unrecognized_keys':
          return `Unknown field${issue.keys.length > 1 ? 's' : ''}: ${issue.keys.join(', ')}. Remove ${issue.keys.length > 1 ? 'them' : 'it'} and try again.`;
        case 'too_small':
          if (issue.origin === 'string') return Number(issue.minimum) <= 1 ? `${label} is required.` : `${label} must be at least ${issue.minimum} characters.`;
          if (issue.origin === 'array') return `${label} needs at least ${issue.minimum} item${Number(issue.minimum) === 1 ? '' : 's'}.`;
          return `${label} must be at least ${issue.minimum}.`;
        case 'too_big':
          if (issue.origin === 'string') return `${label} must be at most ${issue.maximum} characters.`;
          if (issue.origin === 'array') return `${label} allows at most ${issue.maximum} items.`;
          return `${label} must be at most ${issue.maximum}.`;
        case 'invalid_format':
          return issue.format === 'email' ? `${label} is invalid.` : `${label} is not a valid ${issue.format}.`;
        case 'invalid_value':
          return `${label} must be one of: ${issue.values.map(String).join(', ')}.`;
        default:
          return undefined;
      }
    },
  });
}

/**
 * A schema's refusal of fields a route parses itself (multipart forms), in the envelope the central error handler
 * gives route-schema refusals: one detail per issue, its field the issue's path (with the unknown keys' names).
 */
export function validationError(issues: readonly z.core.$ZodIssue[]): HttpError {
  const details = issues.map((issue) => {
    const path = issue.path.map(String).join('.');
    const keys = issue.code === 'unrecognized_keys' ? issue.keys.join(',') : '';
    return { field: [path, keys].filter(Boolean).join('.') || 'request', message: issue.message };
  });
  return new HttpError(400, 'VALIDATION_ERROR', details[0]?.message ?? 'The request is not valid.', details);
}

const article = (expected: string) => (/^[aeiou]/.test(expected) ? `an ${expected}` : `a ${expected}`);

export const uuidParam = z.object({ id: z.uuid({ error: 'The id in the address is not valid.' }) }).strict();
