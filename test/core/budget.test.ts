import { strict as assert } from 'node:assert';
import { MAX_BUDGET_TOKENS, OptimizeError, resolveBudget } from '../../src/core';

describe('core/budget', () => {
  const cases: [unknown, number, number][] = [
    [500, 1000, 500],
    ['500', 1000, 500],
    [' 40% ', 1000, 400],
    ['12.5%', 1000, 125],
    ['50%', 7, 3], // rounds down
    ['1%', 7, 1], // never below one token of a non-empty prompt
    ['100%', 1234, 1234],
    ['.5%', 1000, 5],
    ['50%', 0, 0],
    [MAX_BUDGET_TOKENS, 10, MAX_BUDGET_TOKENS],
  ];
  for (const [budget, original, expected] of cases) {
    it(`resolves ${JSON.stringify(budget)} of ${original} tokens to ${expected}`, () => {
      assert.equal(resolveBudget(budget, original), expected);
    });
  }

  const invalid: unknown[] = [0, -5, 1.5, Number.NaN, Infinity, 1e308, MAX_BUDGET_TOKENS + 1, 'abc', '150%', '%', '0%', '-5%', '', '5 0', '50 %x', null, undefined, {}, [], true];
  for (const budget of invalid) {
    it(`rejects ${String(typeof budget === 'string' ? JSON.stringify(budget) : budget)} with budget_invalid`, () => {
      assert.throws(
        () => resolveBudget(budget, 1000),
        (error: unknown) => error instanceof OptimizeError && error.code === 'budget_invalid' && error.param === 'budget' && /percentage/.test(error.message),
      );
    });
  }
});
