import { strict as assert } from 'node:assert';
import { REWRITES } from '../../../src/core/data/rewrites';
import { rewrite } from '../../../src/core/passes/rewrite';
import { through, tokenizer } from '../helpers';

const RESTRICTIONS = /\b(not|no|never|none|nor|only|must|except|unless|without|cannot|can't|don't|doesn't|won't|shouldn't|mustn't|at most|at least|exactly|always)\b/i;

describe('core/passes/rewrite', () => {
  const rw = (text: string) => through(text, [rewrite]);

  it('has at least 150 entries, each unique', () => {
    assert.ok(REWRITES.length >= 150, `only ${REWRITES.length} entries`);
    const keys = REWRITES.map(([from]) => from.toLowerCase());
    assert.equal(new Set(keys).size, keys.length);
  });

  it('every entry saves tokens in o200k_base', () => {
    const wasteful = REWRITES.filter(([from, to]) => tokenizer.count(` ${to}`.trimEnd()) >= tokenizer.count(` ${from}`));
    assert.deepEqual(wasteful, []);
  });

  it('no entry removes or weakens a negation or restriction', () => {
    const weakening = REWRITES.filter(([from, to]) => {
      const lost = (from.match(new RegExp(RESTRICTIONS, 'gi')) ?? []).map((w) => w.toLowerCase());
      return lost.some((w) => !to.toLowerCase().includes(w));
    });
    assert.deepEqual(weakening, []);
  });

  const examples: [string, string][] = [
    ['In order to pass, run the tests.', 'To pass, run the tests.'],
    ['I want you to act as a linux terminal.', 'Act as a linux terminal.'],
    ['Please, write a poem.', 'Write a poem.'],
    ['Could you please summarize this text?', 'Summarize this text?'],
    ['It failed due to the fact that the disk was full.', 'It failed because the disk was full.'],
    ['This is really very important.', 'This is important.'],
    ['Please note that the API is slow.', 'Note: the API is slow.'],
    ['You should keep in mind that it is slow.', 'You should keep in mind that it is slow.'],
    ['IN ORDER TO WIN, PLAY.', 'TO WIN, PLAY.'],
    ['Do not, under any circumstances, delete files.', 'Do not, under any circumstances, delete files.'],
    ['Thank you very much!', ''],
    ['My first request is "hello world".', 'First request: "hello world".'],
    ['Request 1: please shorten this text.', 'Request 1: Shorten this text.'],
    ['Also, it would be really great if you could kindly avoid jargon.', 'Also, avoid jargon.'],
    ['Basically, what I would really like you to do is to please write a summary.', 'Write a summary.'],
    ['Thank you so much in advance for your help with this, I really do appreciate it!', ''],
    ['Hello there! Summarize the text. Thanks in advance!', 'Summarize the text.'],
    ['Keep it short, if that is at all possible.', 'Keep it short.'],
    ['In order to make it easier for you, here is what I would like you to do, if at all possible:', 'Here is what to do:'],
    ['I hope you are doing well. Fix the bug.', 'Fix the bug.'],
    ['I was wondering if you could possibly help me out with something. Fix the bug.', 'Fix the bug.'],
    ['Thanks to the new cache, builds are fast.', 'Thanks to the new cache, builds are fast.'],
  ];
  for (const [input, expected] of examples) {
    it(`rewrites ${JSON.stringify(input)}`, () => assert.equal(rw(input), expected));
  }

  it('never rewrites inside protected spans', () => {
    assert.equal(rw('Print "in order to" and `please` verbatim.'), 'Print "in order to" and `please` verbatim.');
  });

  it('is skipped for text that is not English', () => {
    const german = 'Bitte schreiben Sie einen kurzen Text über das Wetter in Berlin. Der Text soll freundlich sein.';
    assert.equal(rw(german), german);
  });
});
