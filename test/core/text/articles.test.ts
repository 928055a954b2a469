import { strict as assert } from 'node:assert';
import { agreeArticle } from '../../../src/core/text/articles';

describe('core/text/articles', () => {
  const join = (before: string, after: string) => agreeArticle(before, after) + after;

  it('turns "a" into "an" before a vowel sound, and back', () => {
    assert.equal(join('hoping a ', 'explicit prompt'), 'hoping an explicit prompt');
    assert.equal(join('It is an ', 'good idea'), 'It is a good idea');
    assert.equal(join('A ', 'honest answer'), 'An honest answer');
    assert.equal(join('Write an ', 'hour-long plan'), 'Write an hour-long plan');
  });

  it('reads the sound, not the letter: "a user", "a one-off", "an SQL query", "a URL"', () => {
    assert.equal(join('for an ', 'user'), 'for a user');
    assert.equal(join('as an ', 'one-off'), 'as a one-off');
    assert.equal(join('write a ', 'SQL query'), 'write an SQL query');
    assert.equal(join('give an ', 'URL'), 'give a URL');
    assert.equal(join('an ', 'unusual case'), 'an unusual case');
  });

  it('changes only an article that ends the text before the gap', () => {
    assert.equal(agreeArticle('Take a ', 'apple'), 'Take an ');
    assert.equal(agreeArticle('data ', 'apple'), 'data ');
    assert.equal(agreeArticle('Plan a ', '— then go'), 'Plan a ');
    // A capital "A" inside a sentence is a name: "Plan A", "Option A".
    assert.equal(agreeArticle('Plan A ', 'is the default'), 'Plan A ');
    assert.equal(agreeArticle('Done. A ', 'honest answer'), 'Done. An ');
  });
});
