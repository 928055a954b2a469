import { strict as assert } from 'node:assert';
import { dedupe } from '../../../src/core/passes/dedupe';
import { through } from '../helpers';

describe('core/passes/dedupe', () => {
  const dd = (text: string) => through(text, [dedupe]);

  it('removes exact repeats (case and spacing folded), keeping the first', () => {
    assert.equal(dd('Answer in English. Be brief. ANSWER in  english.'), 'Answer in English. Be brief.');
  });

  it('keeps the repeat of a line of marks alone: the closing delimiter of what the first opened', () => {
    assert.equal(dd('Read this:\n%%%\nThe report is late.\n%%%\nSummarise it.'), 'Read this:\n%%%\nThe report is late.\n%%%\nSummarise it.');
  });

  it("keeps a record's field that repeats under another heading ('Applies to: all offices' of two documents), not within one", () => {
    const docs = '### Document 1\nID: HR-112\nApplies to: all offices\n\nParents get 16 weeks.\n\n### Document 2\nID: FIN-031\nApplies to: all offices\n\nFlights are economy.';
    assert.equal(dd(docs), docs);
    assert.equal(dd('### Document 1\nApplies to: all offices\nApplies to: all offices\n\nParents get 16 weeks.'), '### Document 1\nApplies to: all offices\n\nParents get 16 weeks.');
    assert.equal(dd('## Rules\nAnswer in English.\n\n## Style\nAnswer in English.'), '## Rules\nAnswer in English.\n\n## Style');
  });

  it('removes near repeats that share the same protected spans', () => {
    assert.equal(
      dd('Always return the final answer as valid JSON. Be brief. Always return the final answer as valid JSON please.'),
      'Always return the final answer as valid JSON. Be brief.',
    );
  });

  it('keeps a near repeat that says something the first does not: another subject is another rule', () => {
    const rules = 'Links on the pages should have numbers next to them written between []. Inputs on the pages should have numbers next to them written between [].';
    assert.equal(dd(rules), rules);
  });

  it('keeps near repeats that differ in a number or a negation', () => {
    const numbers = 'The free plan allows 50 requests per minute for each user. The free plan allows 60 requests per minute for each user.';
    assert.equal(dd(numbers), numbers);
    const negation = 'You should include the full stack trace in the bug report. You should not include the full stack trace in the bug report.';
    assert.equal(dd(negation), negation);
  });
});
