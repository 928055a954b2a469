/**
 * Exact token counts at the cost of a scan. A tiktoken-style encoding splits text into chunks with its
 * pre-tokenizer and byte-pair encodes each chunk on its own, so the count of a text is the sum of its
 * chunks' counts; chunks repeat a lot ("the", " of", "."), so each chunk's count is remembered.
 */
import { ChunkCounts } from './chunk-table';

export interface ChunkSplitter {
  /** End of the chunk that starts at `start`, where `start` is a chunk boundary (0 or a previous end). */
  chunkEnd(text: string, start: number): number;
  /**
   * The same end when it is decided by `text` up to two characters past it (and over whitespace, up
   * to the first non-whitespace character), else -1. Such a chunk is the same in any text that agrees
   * that far: counts of slices reuse it.
   */
  localChunkEnd?(text: string, start: number): number;
}

/** A text counted once, whose slices can then be counted mostly from its chunks. */
export interface CountedText {
  readonly text: string;
  readonly tokens: number;
  /** Exactly count(text.slice(from, to)). */
  countSlice(from: number, to: number): number;
}

export interface ChunkCounter {
  count(text: string): number;
  countText(text: string): CountedText;
}

export function chunkCounter(splitter: ChunkSplitter, countChunk: (chunk: string) => number): ChunkCounter {
  const counts = new ChunkCounts();
  const chunkTokens = (text: string, start: number, end: number): number => {
    let tokens = counts.get(text, start, end);
    if (tokens < 0) {
      const chunk = text.slice(start, end);
      tokens = countChunk(chunk);
      counts.set(chunk, tokens);
    }
    return tokens;
  };
  const count = (text: string): number => {
    let total = 0;
    for (let start = 0; start < text.length; ) {
      const end = splitter.chunkEnd(text, start);
      total += chunkTokens(text, start, end);
      start = end;
    }
    return total;
  };
  const countText = (text: string): CountedText => {
    const chunks = new Chunks();
    for (let start = 0; start < text.length; ) {
      const local = splitter.localChunkEnd ? splitter.localChunkEnd(text, start) : -1;
      const end = local >= 0 ? local : splitter.chunkEnd(text, start);
      chunks.add(start, end, chunkTokens(text, start, end), local >= 0);
      start = end;
    }
    return { text, tokens: chunks.tokens, countSlice: (from, to) => countSlice(text, chunks, from, to) };
  };
  const countSlice = (text: string, chunks: Chunks, from: number, to: number): number => {
    const slice = text.slice(from, to);
    // Whitespace at the end could be read past by a reused chunk: count such a slice on its own.
    if (slice.length === 0 || /\s/.test(slice[slice.length - 1]!)) return count(slice);
    let total = 0;
    let i = chunks.firstAtOrAfter(from);
    for (let q = 0; q < slice.length; ) {
      const p = from + q;
      while (i < chunks.size && chunks.starts[i]! < p) i++;
      // The slice's own chunk at p is the whole text's when that one read only characters before `to`.
      if (i < chunks.size && chunks.starts[i] === p && chunks.local[i] === 1 && chunks.ends[i]! + 3 <= to) {
        total += chunks.counts[i]!;
        q = chunks.ends[i]! - from;
        continue;
      }
      const end = splitter.chunkEnd(slice, q);
      total += chunkTokens(slice, q, end);
      q = end;
    }
    return total;
  };
  return { count, countText };
}

/** The chunks of one text: where each starts and ends, its tokens, and whether it is local. */
class Chunks {
  size = 0;
  tokens = 0;
  starts = new Int32Array(1024);
  ends = new Int32Array(1024);
  counts = new Int32Array(1024);
  local = new Uint8Array(1024);

  add(start: number, end: number, tokens: number, local: boolean): void {
    if (this.size === this.starts.length) this.grow();
    this.starts[this.size] = start;
    this.ends[this.size] = end;
    this.counts[this.size] = tokens;
    this.local[this.size] = local ? 1 : 0;
    this.size++;
    this.tokens += tokens;
  }

  /** Index of the first chunk that starts at or after `offset`. */
  firstAtOrAfter(offset: number): number {
    let low = 0;
    let high = this.size;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (this.starts[mid]! < offset) low = mid + 1;
      else high = mid;
    }
    return low;
  }

  private grow(): void {
    const grown = <T extends Int32Array | Uint8Array>(a: T): T => {
      const b = new (a.constructor as new (n: number) => T)(a.length * 2);
      b.set(a);
      return b;
    };
    this.starts = grown(this.starts);
    this.ends = grown(this.ends);
    this.counts = grown(this.counts);
    this.local = grown(this.local);
  }
}
