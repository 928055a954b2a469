/**
 * Exact token counts at the cost of a scan. A tiktoken-style encoding splits text into chunks with its
 * pre-tokenizer and byte-pair encodes each chunk on its own, so the count of a text is the sum of its
 * chunks' counts; chunks repeat a lot ("the", " of", "."), so each chunk's count is remembered.
 */
export interface ChunkSplitter {
  /** End of the chunk that starts at `start`, where `start` is a chunk boundary (0 or a previous end). */
  chunkEnd(text: string, start: number): number;
}

/** Enough for the distinct chunks of a few million tokens of prose; cleared when full. */
const MAX_CACHED_CHUNKS = 200_000;

export function chunkCounter(splitter: ChunkSplitter, countChunk: (chunk: string) => number): (text: string) => number {
  const cache = new Map<string, number>();
  return (text) => {
    let total = 0;
    for (let start = 0; start < text.length; ) {
      const end = splitter.chunkEnd(text, start);
      const chunk = text.slice(start, end);
      let tokens = cache.get(chunk);
      if (tokens === undefined) {
        if (cache.size >= MAX_CACHED_CHUNKS) cache.clear();
        tokens = countChunk(chunk);
        cache.set(chunk, tokens);
      }
      total += tokens;
      start = end;
    }
    return total;
  };
}
