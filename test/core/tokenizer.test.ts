import { strict as assert } from 'node:assert';
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Tiktoken } from 'js-tiktoken/lite';
import o200k from 'js-tiktoken/ranks/o200k_base';
import cl100k from 'js-tiktoken/ranks/cl100k_base';
import { countTokens, encodingForModel, OptimizeError } from '../../src/core';
import { libraryCount, tokenizerFor } from '../../src/core/tokenizer';

const DATA = resolve(__dirname, '../../../shared/data');

describe('core/tokenizer', () => {
  const reference = { o200k_base: new Tiktoken(o200k), cl100k_base: new Tiktoken(cl100k) };
  const refCount = (text: string, encoding: keyof typeof reference) => reference[encoding].encode(text, [], []).length;

  it('maps model families to their encodings', () => {
    const cases: [string, string][] = [
      ['gpt-4o', 'o200k_base'], ['gpt-4o-mini', 'o200k_base'], ['gpt-4o-2024-08-06', 'o200k_base'], ['gpt-4.1-nano', 'o200k_base'],
      ['gpt-5', 'o200k_base'], ['gpt-5.1-mini', 'o200k_base'], ['o1-preview', 'o200k_base'], ['o3', 'o200k_base'], ['o4-mini', 'o200k_base'],
      ['gpt-4', 'cl100k_base'], ['gpt-4-0613', 'cl100k_base'], ['gpt-4-turbo', 'cl100k_base'], ['gpt-3.5-turbo', 'cl100k_base'], ['GPT-4O', 'o200k_base'],
    ];
    for (const [model, encoding] of cases) assert.equal(encodingForModel(model), encoding, model);
  });

  it('rejects unknown models with model_unsupported naming the param', () => {
    for (const model of ['claude-3', 'gpt-2', 'llama', '', 'o2']) {
      assert.throws(() => countTokens('hi', model), (e: unknown) => e instanceof OptimizeError && e.code === 'model_unsupported' && e.param === 'model');
    }
  });

  it('counts special-token strings as ordinary text', () => {
    const text = 'before <|endoftext|> and <|im_start|>user<|im_end|> after';
    assert.equal(countTokens(text, 'gpt-4o'), refCount(text, 'o200k_base'));
    assert.equal(countTokens(text, 'gpt-4'), refCount(text, 'cl100k_base'));
  });

  it('agrees with js-tiktoken on edge cases', () => {
    for (const text of ['', ' ', 'é', 'e\u0301', '👩‍👩‍👧', '\uD800', 'a\u0000b', '\r\n\r\n', 'مرحبا', '日本語', '   lots   of   space   ']) {
      assert.equal(countTokens(text), refCount(text, 'o200k_base'), JSON.stringify(text));
    }
  });

  it('agrees with js-tiktoken on the shared data, in both encodings', function () {
    const files = ['squad-dev-v1.1-super-bowl-50.json', 'awesome-chatgpt-prompts.csv'].map((f) => resolve(DATA, f));
    if (!files.every(existsSync)) this.skip();
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      assert.equal(countTokens(text, 'gpt-4o'), refCount(text, 'o200k_base'), file);
      assert.equal(countTokens(text, 'gpt-4'), refCount(text, 'cl100k_base'), file);
    }
  });

  describe('the chunk-cached counter optimize uses', () => {
    const encodings = ['o200k_base', 'cl100k_base'] as const;
    // Pieces that stress the pre-tokenizer: non-ASCII letters and marks, non-ASCII digits and spaces,
    // contractions, CRLF, control characters, emoji, lone surrogates, special-token strings.
    const PIECES = ['a', 'Z', 'é', 'É', 'ß', '\u0301', 'ǅ', 'ʰ', '中', '7', '٣', '²', ' ', '  ', '\t', '\n', '\r', '\r\n', '\u00a0', '\u2028', '\v', '\f',
      "'", "'s", "'S", "'ll", "'LL", "'Ve", "'re", "'d", '’', '.', ',', '/', '-', '"', '😀', '👩‍👩‍👧', '\uD800', '\uDC00', '<|endoftext|>', '<|im_start|>',
      ' the', 'The', 'NASA', 'camelCase', '123456', '\u0000', '\u001f', '\u007f', '~'];

    it('equals the library count on adversarial text, in both encodings', () => {
      let seed = 1;
      const random = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
      for (const encoding of encodings) {
        const fast = tokenizerFor(encoding);
        const library = libraryCount(encoding);
        for (let n = 0; n < 20_000; n++) {
          let text = '';
          for (let k = 1 + Math.floor(random() * 12); k > 0; k--) {
            text += random() < 0.7 ? PIECES[Math.floor(random() * PIECES.length)] : String.fromCharCode(Math.floor(random() * 128));
          }
          assert.equal(fast.count(text), library(text), `${encoding} ${JSON.stringify(text)}`);
          assert.equal(fast.count(text), refCount(text, encoding), `${encoding} ${JSON.stringify(text)} (js-tiktoken)`);
        }
      }
    });

    it('counts slices of a counted text exactly, reusing its chunks', () => {
      let seed = 2;
      const random = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
      for (const encoding of encodings) {
        const tokenizer = tokenizerFor(encoding);
        for (let n = 0; n < 2_000; n++) {
          let text = '';
          for (let k = Math.floor(random() * 40); k > 0; k--) text += random() < 0.3 ? ' word.' : PIECES[Math.floor(random() * PIECES.length)];
          const counted = tokenizer.countText(text);
          assert.equal(counted.tokens, tokenizer.count(text));
          for (let r = 0; r < 10; r++) {
            const from = Math.floor(random() * (text.length + 1));
            const to = from + Math.floor(random() * (text.length - from + 1));
            assert.equal(counted.countSlice(from, to), tokenizer.count(text.slice(from, to)), `${encoding} ${JSON.stringify(text)} ${from}-${to}`);
          }
        }
      }
    });

    it('equals the library count on the shared data, in both encodings', function () {
      const files = ['squad-dev-v1.1-super-bowl-50.json', 'awesome-chatgpt-prompts.csv'].map((f) => resolve(DATA, f));
      if (!files.every(existsSync)) this.skip();
      for (const file of files) {
        const text = readFileSync(file, 'utf8');
        for (const encoding of encodings) assert.equal(tokenizerFor(encoding).count(text), libraryCount(encoding)(text), `${encoding} ${file}`);
      }
    });
  });
});
