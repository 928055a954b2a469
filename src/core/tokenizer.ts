import { GptEncoding } from 'gpt-tokenizer/GptEncoding';
import o200kRanks from 'gpt-tokenizer/bpeRanks/o200k_base';
import cl100kRanks from 'gpt-tokenizer/bpeRanks/cl100k_base';
import { CL100K_TOKEN_SPLIT_REGEX } from 'gpt-tokenizer/encodingParams/constants';
import type { EncodingName } from './models';
import { chunkCounter, type ChunkSplitter, type CountedText } from './tokens/chunk-counter';
import { o200kChunkEnd, o200kLocalChunkEnd } from './tokens/o200k-chunks';

export type { CountedText };

/** The one interface the rest of the code counts tokens through, so the library can be swapped. */
export interface Tokenizer {
  readonly encoding: EncodingName;
  /** Exact count, as the library's; fast on text whose chunks were seen before. */
  count(text: string): number;
  /** Counts a text so that its slices can then be counted cheaply (and exactly). */
  countText(text: string): CountedText;
}

// Special-token strings such as <|endoftext|> in user text are ordinary text, never an error.
const AS_PLAIN_TEXT = { disallowedSpecial: new Set<string>() };

const RANKS: Record<EncodingName, Parameters<typeof GptEncoding.getEncodingApi>[1]> = {
  o200k_base: () => o200kRanks,
  cl100k_base: () => cl100kRanks,
};

/** The library's own regex, matched from each chunk boundary (it has no lookbehind, so this is exact). */
function regexSplitter(pattern: RegExp): ChunkSplitter {
  const sticky = new RegExp(pattern.source, 'uy');
  return {
    chunkEnd(text, start) {
      sticky.lastIndex = start;
      const match = sticky.exec(text);
      return match && match[0].length > 0 ? start + match[0].length : start + 1;
    },
  };
}

const SPLITTERS: Record<EncodingName, ChunkSplitter> = {
  o200k_base: { chunkEnd: o200kChunkEnd, localChunkEnd: o200kLocalChunkEnd },
  cl100k_base: regexSplitter(CL100K_TOKEN_SPLIT_REGEX),
};

const libraries = new Map<EncodingName, (text: string) => number>();
const tokenizers = new Map<EncodingName, Tokenizer>();

/** The library's count, unchanged: builds the encoding on first use only (about 0.1 s each). */
export function libraryCount(encoding: EncodingName): (text: string) => number {
  let count = libraries.get(encoding);
  if (!count) {
    const api = GptEncoding.getEncodingApi(encoding, RANKS[encoding]);
    count = (text) => (text ? api.countTokens(text, AS_PLAIN_TEXT) : 0);
    libraries.set(encoding, count);
  }
  return count;
}

/** The counter optimize uses: the library's count per pre-tokenizer chunk, remembered. */
export function tokenizerFor(encoding: EncodingName): Tokenizer {
  let tokenizer = tokenizers.get(encoding);
  if (!tokenizer) {
    const counter = chunkCounter(SPLITTERS[encoding], libraryCount(encoding));
    tokenizer = { encoding, count: counter.count, countText: counter.countText };
    tokenizers.set(encoding, tokenizer);
  }
  return tokenizer;
}
