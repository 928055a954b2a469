const INITIAL_SLOTS = 1 << 12;
const MAX_SLOTS = 1 << 18;

/**
 * Open-addressing hash table from chunk to token count, looked up by the chunk's place in a text:
 * a hit allocates no substring (a Map would need one per chunk, and its hash, then collect it).
 * Grows to MAX_SLOTS, then starts over.
 */
export class ChunkCounts {
  private keys: (string | undefined)[] = new Array<string | undefined>(INITIAL_SLOTS).fill(undefined);
  private hashes = new Int32Array(INITIAL_SLOTS);
  private tokens = new Int32Array(INITIAL_SLOTS);
  private size = 0;
  private lastHash = 0;

  /** Token count of text[start, end), or -1 when not known yet. */
  get(text: string, start: number, end: number): number {
    let hash = 0x811c9dc5; // FNV-1a over UTF-16 code units
    for (let i = start; i < end; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
    this.lastHash = hash;
    const mask = this.keys.length - 1;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const key = this.keys[slot];
      if (key === undefined) return -1;
      if (this.hashes[slot] === hash && key.length === end - start && text.startsWith(key, start)) return this.tokens[slot]!;
    }
  }

  /** Remembers the chunk the last `get` missed. */
  set(chunk: string, tokens: number): void {
    if (this.size * 2 >= this.keys.length) this.resize(this.keys.length < MAX_SLOTS ? this.keys.length * 2 : INITIAL_SLOTS);
    this.insert(chunk, this.lastHash, tokens);
  }

  private insert(chunk: string, hash: number, tokens: number): void {
    const mask = this.keys.length - 1;
    let slot = hash & mask;
    while (this.keys[slot] !== undefined) slot = (slot + 1) & mask;
    this.keys[slot] = chunk;
    this.hashes[slot] = hash;
    this.tokens[slot] = tokens;
    this.size++;
  }

  /** Doubles the table, or empties it when it is at its largest. */
  private resize(slots: number): void {
    const { keys, hashes, tokens } = this;
    this.keys = new Array<string | undefined>(slots).fill(undefined);
    this.hashes = new Int32Array(slots);
    this.tokens = new Int32Array(slots);
    this.size = 0;
    if (slots < keys.length) return;
    for (let slot = 0; slot < keys.length; slot++) if (keys[slot] !== undefined) this.insert(keys[slot]!, hashes[slot]!, tokens[slot]!);
  }
}
