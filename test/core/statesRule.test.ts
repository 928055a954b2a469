import * as assert from 'node:assert/strict';
import { statesRule } from '../../src/core';

describe('core statesRule (what the extension marks as a dropped rule)', () => {
  for (const rule of ['Never share internal ticket numbers with customers.', 'Answer only if you are sure.', 'Use at most 3 bullet points.', 'Antworte nie auf Englisch.',
    'If needed, ask a question, and if the user is rude, end the chat.', 'If possible, never use web searches.']) {
    it(`a rule: ${rule}`, () => assert.equal(statesRule(rule), true));
  }
  // "If possible" hedges; it sets no condition.
  for (const other of ['The weather in the office is usually pleasant.', "Thanks, I'm not sure this is clear.", 'Summarize the report.', 'If possible, you may use web searches to find the paper.']) {
    it(`no rule: ${other}`, () => assert.equal(statesRule(other), false));
  }
});
