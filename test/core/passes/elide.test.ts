import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { elide, elision } from '../../../src/core/passes/elide';
import { tokenizerFor } from '../../../src/core/tokenizer';
import { context, through } from '../helpers';

describe('core/passes/elide', () => {
  // A lossy pass: it runs only over budget, and then on every sentence it needs; here the budget is what
  // the expected text costs, so the whole sentence must be elided.
  const el = (text: string, expected = text) => through(text, [elision], context(tokenizerFor('o200k_base').count(expected), 'strict'));

  it('changes nothing when the text fits the budget', () => {
    const text = 'Act as a composer and write the music for an opera.';
    assert.equal(through(text, [elision], context(1000)), text);
  });

  const examples: [string, string][] = [
    ['Act as a composer and write the music for an opera.', 'Act as composer and write music for opera.'],
    ['The user sends a message.', 'User sends message.'],
    ['Read it, check it, and fix it.', 'Read it, check it and fix it.'],
    ['Reply in English, or in French.', 'Reply in English or in French.'],
    // Where the article carries meaning, or is not an article at all: kept.
    ['Give me a few ideas and a little help, not a lot.', 'Give me a few ideas and a little help, not a lot.'],
    ['Use the same format as the other file.', 'Use the same format as the other file.'],
    ['Take a look, one at a time; as a result the whole text is shorter.', 'Take a look, one at a time; as a result whole text is shorter.'],
    ['Be concise and to the point; by the way, in the end the tests pass.', 'Be concise and to the point; by the way, in the end tests pass.'],
    ['Read the Lord of the Rings on the iPhone.', 'Read the Lord of the Rings on the iPhone.'],
    ['Pick option a then column a as shown.', 'Pick option a then column a as shown.'],
    // "a" as "per", and "the two" (those two): meaning, kept.
    ['Review the access list at least once a year and bill $5 a month.', 'Review access list at least once a year and bill $5 a month.'],
    ['Share the helpers between the two apps.', 'Share helpers between the two apps.'],
    ['Is it vitamin A or B? Take a or b.', 'Is it vitamin A or B? Take a or b.'],
    ['Answer with "a short story" and `the value`.', 'Answer with "a short story" and `the value`.'],
  ];
  for (const [input, expected] of examples) {
    it(`elides ${JSON.stringify(input)}`, () => assert.equal(el(input, expected), expected));
  }

  it('leaves the text as written when eliding all of it could not make it fit', () => {
    const text = 'Act as a composer and write the music for an opera.';
    assert.equal(through(text, [elision], context(3, 'strict')), text);
  });

  it('never edits what relaxed mode keeps whatever the budget (the role, the closing request)', () => {
    const text = 'You are an expert in the history of the region.\n\nSummarise the notes for the team in a short list.';
    assert.equal(through(text, [elision], context(12, 'relaxed')), text);
  });

  // The pass subtracts `saved` instead of counting the sentence again: it must be exact, in both encodings.
  const WORDS = ['the', 'a', 'an', 'The', 'A', 'cat', 'user', 'file', 'and', 'or', 'of', 'x,', '5,', '(the', '"a', 'iPhone', 'few', 'same', '\n', '  '];
  const fragment = fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 24 }).map((w) => w.join(' '));
  for (const encoding of ['o200k_base', 'cl100k_base'] as const) {
    it(`reports an exact token saving when it reports one (${encoding})`, () => {
      const { count } = tokenizerFor(encoding);
      fc.assert(fc.property(fragment, fc.boolean(), (text, opens) => {
        const { text: out, saved } = elide(text, opens);
        if (saved !== undefined) assert.equal(count(text) - saved, count(out), JSON.stringify([text, out]));
      }), { seed: 7, numRuns: 2000 });
    });
  }

  it('is skipped for text that is not English', () => {
    const spanish = 'El informe describe los resultados del proyecto, y el equipo pide un resumen a la dirección.';
    assert.equal(el(spanish), spanish);
  });
});
