import { GptEncoding } from 'gpt-tokenizer/GptEncoding';
import o200kRanks from 'gpt-tokenizer/bpeRanks/o200k_base';
import cl100kRanks from 'gpt-tokenizer/bpeRanks/cl100k_base';
import { encodingForModel, type EncodingName } from './models';

/** The one interface the rest of the code counts tokens through, so the library can be swapped. */
export interface Tokenizer {
  readonly encoding: EncodingName;
  count(text: string): number;
}

// Special-token strings such as <|endoftext|> in user text are ordinary text, never an error.
const AS_PLAIN_TEXT = { disallowedSpecial: new Set<string>() };

const RANKS: Record<EncodingName, Parameters<typeof GptEncoding.getEncodingApi>[1]> = {
  o200k_base: () => o200kRanks,
  cl100k_base: () => cl100kRanks,
};

const cache = new Map<EncodingName, Tokenizer>();

/** Builds an encoding on first use only (about 0.1 s each), then reuses it. */
export function tokenizerFor(encoding: EncodingName): Tokenizer {
  let tokenizer = cache.get(encoding);
  if (!tokenizer) {
    const api = GptEncoding.getEncodingApi(encoding, RANKS[encoding]);
    tokenizer = { encoding, count: (text) => (text ? api.countTokens(text, AS_PLAIN_TEXT) : 0) };
    cache.set(encoding, tokenizer);
  }
  return tokenizer;
}

export function tokenizerForModel(model: string): Tokenizer {
  return tokenizerFor(encodingForModel(model));
}
