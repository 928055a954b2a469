import { strict as assert } from 'node:assert';
import { estimateTokens, keptSentences, render, sentenceText } from '../../../src/core/doc';
import { prune, pruneCandidates } from '../../../src/core/passes/prune';
import { segment } from '../../../src/core/passes/segment';
import { tokenizerFor } from '../../../src/core/tokenizer';
import { select } from '../../../src/core/passes/select';
import { context, parse, tokenizer } from '../helpers';

const FACTS =
  'The museum opened in 1923 in a former railway station. Its collection holds 4,000 paintings. ' +
  'The roof was rebuilt after a storm in 1987. Guided tours start every hour at the main entrance. ' +
  'The café on the top floor serves lunch until 3 pm. Entry is free on the first Sunday of each month.';

describe('core/passes/select', () => {
  it('keeps the sentence most relevant to the task; with pruning the text fits', () => {
    const doc = parse(FACTS, 'When was the roof rebuilt?');
    select.run(doc, context(20));
    prune.run(doc, context(20));
    const kept = keptSentences(doc).map(sentenceText);
    assert.ok(kept.some((s) => s.includes('1987')), kept.join(' | '));
    assert.ok(estimateTokens(doc) <= 20);
  });

  it('keeps sentences in their original order', () => {
    const doc = parse(FACTS, 'tours and café and entry');
    select.run(doc, context(45));
    const kept = keptSentences(doc).map(sentenceText);
    const positions = kept.map((s) => FACTS.indexOf(s));
    assert.deepEqual([...positions].sort((a, b) => a - b), positions);
  });

  it('keeps instructions and protected blocks in relaxed mode even over budget', () => {
    const text = 'Never share the password. Some background that is not essential at all.\n\n```\nsecret()\n```';
    const doc = parse(text);
    select.run(doc, context(5, 'relaxed'));
    const out = render(doc);
    assert.ok(out.includes('Never share the password.'));
    assert.ok(out.includes('```\nsecret()\n```'));
    assert.ok(!out.includes('background'));
  });

  it('drops protected blocks whole, and only last, in strict mode', () => {
    const text = 'Intro sentence here.\n\n```\nconst veryLongIdentifierName = computeSomething(1, 2, 3);\n```';
    const doc = parse(text);
    select.run(doc, context(3, 'strict'));
    const out = render(doc);
    assert.ok(!out.includes('```'), out);
    assert.equal(doc.notes.protectedDropped, true);
  });
});

describe('core/passes/prune', () => {
  it('removes function words before content words, only as far as needed', () => {
    const text = 'The cat sat on the mat in the garden of the house.';
    const full = tokenizer.count(text);
    const doc = parse(text);
    prune.run(doc, context(full - 2));
    const out = render(doc);
    assert.ok(tokenizer.count(out) <= full - 2, out);
    for (const word of ['cat', 'sat', 'mat', 'garden', 'house']) assert.ok(out.includes(word), out);
  });

  it('never removes negations, names, numbers or task words', () => {
    const doc = parse('Do not send the report to Alice before 5 pm on the server.', 'report');
    prune.run(doc, context(3));
    const out = render(doc);
    for (const kept of ['Do not', 'report', 'Alice', 'before', '5 pm']) assert.ok(out.includes(kept), out);
  });

  it('never takes the function word of a restriction: "at most", "up to", "no more than", "do not"', () => {
    const doc = parse('Keep the answer to at most 300 words, use up to 5 bullet points and no more than two links in the list.');
    prune.run(doc, context(3));
    const out = render(doc);
    for (const kept of ['at most', 'up to', 'no more than']) assert.ok(out.includes(kept), out);
  });

  it('keeps the small words inside and between names: "Gods of Egypt", "Tracy Wolfson and Evan Washburn"', () => {
    const doc = parse('The trailer for Gods of Egypt was shown, and the game was called by Tracy Wolfson and Evan Washburn on the sidelines.');
    prune.run(doc, context(12));
    const out = render(doc);
    for (const kept of ['Gods of Egypt', 'Tracy Wolfson and Evan Washburn']) assert.ok(out.includes(kept), out);
  });

  it('keeps "of the" inside a name: "Out of the Shadows", "Bank of the West"', () => {
    const doc = parse('The trailer for Turtles: Out of the Shadows was shown by the bank, and the Bank of the West paid for some of the ads.');
    prune.run(doc, context(14));
    const out = render(doc);
    for (const kept of ['Out of the Shadows', 'Bank of the West']) assert.ok(out.includes(kept), out);
    assert.ok(!/\bsome of the\b/.test(out), `pruning still removes "of the" outside names: ${out}`);
  });

  it('counts what a word saves in the encoding at hand, whatever was counted before', () => {
    // " brouhaha" is 2 tokens in o200k_base and 4 in cl100k_base.
    for (const encoding of ['o200k_base', 'cl100k_base', 'o200k_base'] as const) {
      const counter = tokenizerFor(encoding);
      const candidate = pruneCandidates(segment('There was a brouhaha.', '', counter), counter).find((c) => c.end - c.start === 'brouhaha'.length);
      assert.equal(candidate?.saving, counter.count(' brouhaha'), encoding);
    }
  });

  it('does nothing when the text already fits', () => {
    const text = 'The cat sat on the mat.';
    const doc = parse(text);
    prune.run(doc, context(100));
    assert.equal(render(doc), text);
  });
});

describe('core/passes/prune capitalisation', () => {
  it('keeps a capital at the start of a sentence whose first word was pruned', () => {
    const text = 'The event was held at the large arena in the city centre of the town.';
    const doc = parse(text);
    prune.run(doc, context(tokenizer.count(text) - 4));
    const out = render(doc);
    assert.ok(!out.startsWith('The '), out);
    assert.match(out, /^\p{Lu}/u, out);
  });

  it('leaves no stray punctuation where words went: no " ,", ",,", "()" or opening comma', () => {
    const texts = [
      'However, on May 3, 2013, the state legislature refused to approve the funding plan for the renovations.',
      "Osweiler was injured, however, leading to Manning's return during the Week 17 regular season finale.",
      'Cornerbacks Aqib Talib (two interceptions) and Chris Harris (four interceptions) led the secondary.',
      "Newton was limited by Denver's defense, which sacked him seven times and forced him into three turnovers.",
    ];
    for (const text of texts) {
      for (let budget = tokenizer.count(text) - 1; budget >= 4; budget--) {
        const doc = parse(text, 'Who was it?');
        select.run(doc, context(budget, 'strict'));
        prune.run(doc, context(budget, 'strict'));
        const out = render(doc);
        assert.doesNotMatch(out, / [,.;:]|[,;:]{2}|\(\s*\)|^[,;:]/, `budget ${budget}: ${out}`);
      }
    }
  });
});
