import type { FastifyInstance } from 'fastify';
import { HttpError } from './errors';

/** No body the API takes comes near this depth; a deeper one is an attack or a mistake. */
export const MAX_JSON_DEPTH = 32;

export const TOO_DEEP_MESSAGE = `The request body is nested too deeply: at most ${MAX_JSON_DEPTH} levels of objects and arrays are accepted.`;

/**
 * True when the JSON text opens more than `max` objects and arrays inside one another. One pass over
 * the characters that stops at the first level too many, so a body of ten thousand brackets costs
 * 33 steps, not a parse (brackets inside strings are text).
 */
export function nestedDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) inString = true;
    else if (c === OPEN_BRACKET || c === OPEN_BRACE) {
      if (++depth > max) return true;
    } else if (c === CLOSE_BRACKET || c === CLOSE_BRACE) depth--;
  }
  return false;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;

/**
 * JSON bodies are parsed by Fastify's own parser (with its prototype-poisoning checks) only after the
 * nesting depth is checked: a deep body is refused with 400 before it is parsed, so neither the parser
 * nor anything that walks the parsed value later pays for it.
 */
export function parseJsonWithinDepth(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser(app.initialConfig.onProtoPoisoning ?? 'error', app.initialConfig.onConstructorPoisoning ?? 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body.toString();
    if (nestedDeeperThan(text, MAX_JSON_DEPTH)) {
      done(new HttpError(400, 'TOO_DEEPLY_NESTED', TOO_DEEP_MESSAGE), undefined);
      return;
    }
    parse(request, text, done);
  });
}
