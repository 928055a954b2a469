import * as assert from 'node:assert/strict';
import { statesRule } from '../../src/core';
import { droppedRules, engineLabel, formatRemovedDocument, formatReviewMessage, summarizeRemovals, type RemovedUnit } from '../../src/extension/logic/review';

const removed: RemovedUnit[] = [
  { pass: 'select', kind: 'sentence', text: 'Never share internal ticket numbers with customers.' },
  { pass: 'select', kind: 'sentence', text: 'The weather in the office is usually pleasant.' },
  { pass: 'select', kind: 'example', text: 'Input: hi\nOutput: hello' },
  { pass: 'prune', kind: 'clause', text: 'as you may know' },
  { pass: 'elide', kind: 'words', text: 'really very' },
  { pass: 'elide', kind: 'words', text: 'basically' },
];

describe('extension/logic/review', () => {
  it('sums up what the passes removed in one line', () => {
    assert.equal(summarizeRemovals(removed), 'dropped 2 sentences and 1 example; cut 1 clause; pruned 3 words');
    assert.equal(summarizeRemovals([{ pass: 'select', kind: 'sentence', text: 'x.' }]), 'dropped 1 sentence');
    assert.equal(summarizeRemovals([]), undefined);
  });

  it('finds the dropped units that state a rule, with the core\'s test', () => {
    assert.deepEqual(droppedRules(removed, statesRule), ['Never share internal ticket numbers with customers.']);
    assert.deepEqual(droppedRules([{ pass: 'elide', kind: 'words', text: 'not' }], statesRule), [], 'loose words are no rule');
  });

  it('names the engine', () => {
    assert.equal(engineLabel('local'), 'local engine');
    assert.equal(engineLabel('remote', { origin: 'http://127.0.0.1:8787', apiVariant: 'B' }), 'remote engine at http://127.0.0.1:8787 (API B)');
  });

  it('puts counts, engine, losses and a dropped rule in the message', () => {
    const review = { summary: summarizeRemovals(removed), rulesDropped: droppedRules(removed, statesRule), engine: 'local engine' };
    assert.equal(
      formatReviewMessage('Prompt: 50 → 17 tokens (−66.0%)', review),
      'Prompt: 50 → 17 tokens (−66.0%), local engine: dropped 2 sentences and 1 example; cut 1 clause; pruned 3 words. Drops 1 rule: \u201cNever share internal ticket numbers with customers\u201d.',
    );
    assert.match(formatReviewMessage('T', { summary: undefined, rulesDropped: [], engine: 'remote engine at http://h (API A)' }), /does not report/);
    assert.equal(formatReviewMessage('T', { summary: undefined, rulesDropped: [], engine: 'local engine' }), 'T, local engine: rewording only (filler words, shorter phrases), nothing dropped.');
  });

  it('lists every removed unit, rules marked', () => {
    const text = formatRemovedDocument(removed, { summary: undefined, rulesDropped: ['Never share internal ticket numbers with customers.'], engine: 'local engine' });
    assert.match(text, /## Sentences \(2\)\n\n- \*\*Rule:\*\* Never share internal ticket numbers with customers\. _\(select\)_\n- The weather/);
    assert.match(text, /## Examples \(1\)\n\n- Input: hi Output: hello _\(select\)_/);
    assert.match(text, /## Words \(2\)/);
  });
});
