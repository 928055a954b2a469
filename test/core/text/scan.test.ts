import { strict as assert } from 'node:assert';
import { PHRASE_WORD, PHRASE_WORD_ASCII } from '../../../src/core/text/phrases';
import { scanWords, type AsciiClasses } from '../../../src/core/text/scan';
import { WORD, WORD_ASCII } from '../../../src/core/text/words';

describe('core/text/scan', () => {
  const scanned = (text: string, pattern: RegExp, ascii: AsciiClasses) => {
    const found: string[] = [];
    scanWords(text, pattern, ascii, (start, end) => found.push(`${start}:${text.slice(start, end)}`));
    return found;
  };
  const matched = (text: string, pattern: RegExp) => [...text.matchAll(new RegExp(pattern.source, pattern.flags))].map((m) => `${m.index}:${m[0]}`);

  it('finds the matches of the word patterns it is given, on ASCII and non-ASCII text', () => {
    const pieces = ['a', 'Z', '7', ' ', '-', '_', "'", '’', '.', 'é', 'É', 'ß', '\u0301', '中', '٣', '²', '😀', '\uD800', '\n', '\u007f', 'don’t', "it's", 'e-mail', 'x_y'];
    let seed = 5;
    const random = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
    for (let n = 0; n < 20_000; n++) {
      let text = '';
      for (let k = Math.floor(random() * 10); k > 0; k--) text += random() < 0.8 ? pieces[Math.floor(random() * pieces.length)] : String.fromCharCode(Math.floor(random() * 128));
      for (const [pattern, ascii] of [[WORD, WORD_ASCII], [PHRASE_WORD, PHRASE_WORD_ASCII]] as const) {
        assert.deepEqual(scanned(text, pattern, ascii), matched(text, pattern), `${pattern} ${JSON.stringify(text)}`);
      }
    }
  });
});
