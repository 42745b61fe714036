import { findUnsafeJson, type JsonPath, MAX_JSON_BODY_DEPTH } from '@haversack/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../lib/app-error.js';

/**
 * Whether a JSON text nests deeper than `max`, found by scanning brackets outside strings without parsing
 * anything, so that nothing recursive (validation, serialisation) ever sees an absurdly deep value.
 */
export function jsonNestsDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let index = 0; index < text.length; index += 1) {
    const char = text.charCodeAt(index);
    if (inString) {
      if (char === 0x5c /* \ */) index += 1;
      else if (char === 0x22 /* " */) inString = false;
    } else if (char === 0x22) {
      inString = true;
    } else if (char === 0x7b /* { */ || char === 0x5b /* [ */) {
      depth += 1;
      if (depth > max) return true;
    } else if (char === 0x7d /* } */ || char === 0x5d /* ] */) {
      depth -= 1;
    }
  }
  return false;
}

const prototypeKeyMessage = 'The request body may not use "__proto__" as a key.';

function isPlainJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** The field as validation details name it: the path in the body (`user.email`), or the query key. */
function fieldName(part: 'params' | 'query' | 'body', path: JsonPath): string {
  return path.length > 0 ? path.join('.') : part;
}

const inputParts = ['params', 'query', 'body'] as const;

/**
 * The server-wide net under the contracts' `text()` and `entityId()`: a route whose schema forgets them is
 * still safe.
 * - Only JSON bodies are read: any other media type (text/plain included) is 415.
 * - The JSON parser refuses a body nested deeper than MAX_JSON_BODY_DEPTH (400) before parsing it.
 * - Before validation, any NUL character or unpaired surrogate anywhere in the path parameters, the query
 *   or the body (keys included) is a 422 VALIDATION_ERROR naming the field, with the contracts' message.
 * It runs after authentication (onRequest), so an anonymous caller still learns only that it must sign in.
 */
export const inputGuardPlugin = fp(
  async (app: FastifyInstance) => {
    // The API takes JSON only (415 "Send JSON" for any other type, as the API document says). Fastify also
    // reads text/plain bodies by default, which would hand a route a string and answer 422 "Must be an
    // object" to JSON sent with the wrong label; nothing of Haversack's posts text (the web app, Discord
    // and Stripe all send application/json).
    app.removeContentTypeParser('text/plain');
    // Fastify's own parser (secure-json-parse, refusing __proto__) does the parsing.
    const parseJson = app.getDefaultJsonParser('error', 'ignore');
    app.removeContentTypeParser('application/json');
    app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
      const json = body.toString();
      if (jsonNestsDeeperThan(json, MAX_JSON_BODY_DEPTH)) {
        done(
          new AppError(
            'BAD_REQUEST',
            `The request body is nested too deeply (at most ${MAX_JSON_BODY_DEPTH} levels).`,
          ),
          undefined,
        );
        return;
      }
      parseJson(request, json, (error, parsed) => {
        // secure-json-parse refuses valid JSON only for a prototype key: say that, not "not valid JSON".
        if (error && isPlainJson(json)) {
          done(new AppError('BAD_REQUEST', prototypeKeyMessage), undefined);
          return;
        }
        done(error, parsed);
      });
    });

    app.addHook('preValidation', async (request: FastifyRequest) => {
      for (const part of inputParts) {
        const value: unknown = request[part];
        // Raw bodies (the Stripe webhook's signed bytes) are not text fields.
        if (Buffer.isBuffer(value)) continue;
        const problem = findUnsafeJson(value, MAX_JSON_BODY_DEPTH);
        if (problem)
          throw AppError.validation([{ field: fieldName(part, problem.path), message: problem.message }]);
      }
    });
  },
  { name: 'input-guard', dependencies: ['error-handler'] },
);
