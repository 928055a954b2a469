import * as assert from 'node:assert/strict';
import { DEFAULT_BUDGET, validateBudget } from '../../src/core';
import { budgetInputProblem, normalizeBudgetSetting, parseBudgetInput } from '../../src/extension/logic/budget';

describe('extension/logic/budget', () => {
  it('parses what a user types into what the core expects', () => {
    assert.equal(parseBudgetInput(' 500 '), 500);
    assert.equal(parseBudgetInput('40%'), '40%');
    assert.equal(parseBudgetInput('40 %'), '40%');
    assert.equal(parseBudgetInput('12.5%'), '12.5%');
    assert.equal(parseBudgetInput('abc'), 'abc');
  });

  for (const ok of ['500', '1', '40%', '100%', '12.5%', '.5%', ' 40 % ']) {
    it(`accepts ${JSON.stringify(ok)} as you type`, () => assert.equal(budgetInputProblem(ok, validateBudget), undefined));
  }
  for (const bad of ['', '   ', '0', '-5', '0%', '150%', '40%%', 'abc', '5.5', '10000001']) {
    it(`refuses ${JSON.stringify(bad)} with a message`, () => {
      const problem = budgetInputProblem(bad, validateBudget);
      assert.ok(problem && problem.length > 10, String(problem));
    });
  }

  it('falls back to the default for an invalid setting and says why', () => {
    assert.deepEqual(normalizeBudgetSetting(800, DEFAULT_BUDGET, validateBudget), { budget: 800 });
    assert.deepEqual(normalizeBudgetSetting('30%', DEFAULT_BUDGET, validateBudget), { budget: '30%' });
    assert.deepEqual(normalizeBudgetSetting('700', DEFAULT_BUDGET, validateBudget), { budget: 700 });
    const bad = normalizeBudgetSetting('lots', DEFAULT_BUDGET, validateBudget);
    assert.equal(bad.budget, DEFAULT_BUDGET);
    assert.match(bad.problem ?? '', /promptOptimizer\.budget/);
  });
});
