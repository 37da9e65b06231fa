import { z } from 'zod';

/** "company_name" → "Company name" for messages people read. */
export function fieldLabel(path: readonly PropertyKey[]): string {
  const last = [...path].reverse().find((p) => typeof p === 'string') as string | undefined;
  if (!last) return 'Value';
  const words = last.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/_/g, ' ').toLowerCase();
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

const article = (expected: string) => (/^[aeiou]/.test(expected) ? `an ${expected}` : `a ${expected}`);

/** Query strings carry text; these read booleans and numbers from it. */
export const queryBoolean = z.enum(['true', 'false']).transform((v) => v === 'true');
export const uuidParam = z.object({ id: z.uuid({ error: 'The id in the address is not valid.' }) }).strict();
