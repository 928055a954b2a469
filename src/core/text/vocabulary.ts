/** Case-insensitive matching key of a word: lower case, with ’ as '. */
export function foldWord(word: string): string {
  const lower = word.toLowerCase();
  return lower.includes('’') ? lower.replace(/’/g, "'") : lower;
}

/** No word of the vocabulary. */
export const UNKNOWN = -1;

// A trie over a-z and ' (index 26): the words it holds use no other characters.
const SYMBOLS = 27;
const APOSTROPHE = 26;

/**
 * A fixed set of folded words with small integer ids, looked up straight from a range of a text:
 * ASCII words walk a trie on their character codes and allocate nothing, the rest are folded.
 */
export class Vocabulary {
  private readonly ids = new Map<string, number>();
  private children = new Int32Array(SYMBOLS);
  private idAtNode = new Int32Array(1).fill(UNKNOWN);
  private nodes = 1;

  constructor(words: Iterable<string>) {
    for (const word of words) this.add(foldWord(word));
  }

  /** Id of a word given as a string. */
  id(word: string): number {
    return this.ids.get(foldWord(word)) ?? UNKNOWN;
  }

  /** Id of the word text[start, end), as foldWord would match it. */
  idIn(text: string, start: number, end: number): number {
    let node = 0;
    for (let i = start; i < end; i++) {
      const c = text.charCodeAt(i);
      const lower = c >= 65 && c <= 90 ? c + 32 : c;
      let symbol: number;
      if (lower >= 97 && lower <= 122) symbol = lower - 97;
      else if (c === 39 || c === 0x2019) symbol = APOSTROPHE;
      else if (c < 128) return UNKNOWN; // digits and the like are in no word
      else return this.id(text.slice(start, end)); // toLowerCase decides for non-ASCII
      node = this.children[node * SYMBOLS + symbol]!;
      if (node === 0) return UNKNOWN; // no word goes on like this, and folding ASCII is per character
    }
    return this.idAtNode[node]!;
  }

  private add(word: string): void {
    if (this.ids.has(word)) return;
    if (!/^[a-z']+$/.test(word)) throw new Error(`Vocabulary words are a-z and ' only: ${word}`);
    const id = this.ids.size;
    this.ids.set(word, id);
    let node = 0;
    for (let i = 0; i < word.length; i++) {
      const symbol = word.charCodeAt(i) === 39 ? APOSTROPHE : word.charCodeAt(i) - 97;
      let child = this.children[node * SYMBOLS + symbol]!;
      if (child === 0) {
        child = this.newNode();
        this.children[node * SYMBOLS + symbol] = child;
      }
      node = child;
    }
    this.idAtNode[node] = id;
  }

  private newNode(): number {
    if (this.nodes === this.idAtNode.length) {
      const children = new Int32Array(this.nodes * 2 * SYMBOLS);
      children.set(this.children);
      this.children = children;
      const idAtNode = new Int32Array(this.nodes * 2).fill(UNKNOWN);
      idAtNode.set(this.idAtNode);
      this.idAtNode = idAtNode;
    }
    return this.nodes++;
  }
}
