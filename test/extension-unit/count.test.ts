import * as assert from 'node:assert/strict';
import { countTokens } from '../../src/core';
import { countOrEstimate } from '../../src/extension/logic/count';

describe('extension/logic/count', () => {
  const count = (text: string) => countTokens(text, 'gpt-4o');

  it('counts exactly up to the limit', () => {
    const text = 'Please summarize the report in three bullet points. '.repeat(20);
    assert.deepEqual(countOrEstimate(text, text.length, count), { tokens: count(text), estimated: false });
  });

  it('estimates large text from samples, within a few percent, touching only the samples', () => {
    const text = 'Please summarize the quarterly report in three short bullet points.\n'.repeat(80_000);
    let counted = 0;
    const result = countOrEstimate(text, 100_000, (t) => {
      counted += t.length;
      return count(t);
    });
    assert.equal(result.estimated, true);
    assert.ok(counted <= 70_000, `tokenized ${counted} characters`);
    const exact = count('Please summarize the quarterly report in three short bullet points.\n') * 80_000;
    assert.ok(Math.abs(result.tokens - exact) / exact < 0.05, `${result.tokens} vs ${exact}`);
  });
});
