// How every request is read: TypeBox validation with our 400 messages, the `auth` slot, and
// JSON as the only body type, refused past a depth or a number of values before it is parsed.
import { ValidationError } from '../../domain/errors.ts';
import { MAX_JSON_DEPTH, MAX_JSON_VALUES, jsonShapeError } from '../request/json-depth.ts';
import { utf8Body } from '../request/utf8-body.ts';
import { FORBIDDEN_KEY } from '../request/json-body.ts';
import { validatorCompiler } from '../request/validation.ts';
import { unencapsulated } from './unencapsulated.ts';

export const requestParsing = unencapsulated(async (app) => {
  app.setValidatorCompiler(validatorCompiler);
  // Set by the /v1 access hooks; declared at the root, so every request has the same shape.
  app.decorateRequest('auth', null);
  // Only JSON bodies are accepted: text/plain would otherwise slip through as a string.
  app.removeContentTypeParser('text/plain');
  // An empty JSON body (common on DELETE from generated clients) is no body, not an error;
  // routes that need a body still say so through their schema.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (req, body, done) => {
    const text = utf8Body(req, body as Buffer);
    if (text instanceof Error) return done(text, undefined);
    if (text === '') return done(null, undefined);
    const maxValues = req.routeOptions.config.maxJsonValues ?? MAX_JSON_VALUES;
    const shapeError = jsonShapeError(text, MAX_JSON_DEPTH, maxValues);
    if (shapeError !== null) return done(shapeError, undefined);
    parseJson(req, text, (err, value) => {
      // The parser refuses __proto__ (and constructor.prototype) in the same words as broken
      // JSON; text that parses plainly was refused for that, so say so (error path only).
      if (err && isPlainJson(text)) return done(new ValidationError(FORBIDDEN_KEY), undefined);
      done(err, value);
    });
  });
});

function isPlainJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}
