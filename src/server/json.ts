/**
 * The JSON body parser: Fastify's own (which refuses `__proto__` and `constructor.prototype`), after two
 * checks that keep the service from reading a body differently than a proxy in front of it might:
 * the bytes must be valid UTF-8 (not silently turned into U+FFFD), and no object may repeat a key
 * (not silently "last one wins"). jsonc-parser walks the already-valid JSON to find repeats.
 */
import { isUtf8 } from 'node:buffer';
import type { FastifyBodyParser, FastifyRequest } from 'fastify';
// The ESM build: the UMD main loads its parts with a require() that bundlers cannot follow.
import { visit } from 'jsonc-parser/lib/esm/main.js';
import { ApiError } from './errors';

type StringParser = (request: FastifyRequest, body: string, done: (error: Error | null, body?: unknown) => void) => void;

/** The first repeated key: its name, and whether it is one of the body's own fields (depth 1). */
export function findDuplicateKey(text: string): { key: string; topLevel: boolean } | null {
  const open: Set<string>[] = [];
  let found: { key: string; topLevel: boolean } | null = null;
  visit(text, {
    onObjectBegin: () => void open.push(new Set()),
    onObjectEnd: () => void open.pop(),
    onObjectProperty: (key) => {
      const keys = open.at(-1)!;
      if (keys.has(key) && !found) found = { key, topLevel: open.length === 1 };
      keys.add(key);
    },
  });
  return found;
}

export function strictJsonParser(parseJson: StringParser): FastifyBodyParser<Buffer> {
  return (request, body, done) => {
    if (!isUtf8(body)) return done(new ApiError(400, 'encoding_invalid', 'The body is not valid UTF-8.'), undefined);
    const text = body.toString('utf8');
    parseJson(request, text, (error, parsed) => {
      if (error) return done(error, undefined);
      const duplicate = findDuplicateKey(text);
      if (duplicate) {
        const param = duplicate.topLevel ? duplicate.key : null;
        return done(new ApiError(400, 'json_duplicate_key', `The body repeats the key ${JSON.stringify(duplicate.key.slice(0, 64))}; send each key once.`, param), undefined);
      }
      done(null, parsed);
    });
  };
}
