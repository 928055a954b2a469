import { strict as assert } from 'node:assert';
import { findProtectedSpans } from '../../../src/core/text/inline';

describe('core/text/inline', () => {
  const spans = (text: string) => findProtectedSpans(text).map((s) => text.slice(s.start, s.end));

  const cases: [string, string[]][] = [
    ['see https://example.com/a?b=1, then stop', ['https://example.com/a?b=1']],
    ['mail me@example.org today', ['me@example.org']],
    ['open src/core/index.ts and ./scripts/run.sh', ['src/core/index.ts', './scripts/run.sh']],
    ['costs $1,200.50 or 15% or 3.5 GB', ['$1,200.50', '15%', '3.5 GB']],
    ['on February 7, 2016 and 2024-01-05T10:00Z', ['February 7, 2016', '2024-01-05T10:00Z']],
    ['hi {{user}}, {name}, <topic>, $API_KEY, [CITY]', ['{{user}}', '{name}', '<topic>', '$API_KEY', '[CITY]']],
    ['upgrade to v2.1 or 1.2.3-beta', ['v2.1', '1.2.3-beta']],
    ["say 'exactly' and “this”", ["'exactly'", '“this”']],
    ["it's John's book", []],
    ['my thought: { typing here, if you explain more }', ['{ typing here, if you explain more }']],
  ];
  for (const [text, expected] of cases) {
    it(`finds ${JSON.stringify(expected)} in ${JSON.stringify(text)}`, () => assert.deepEqual(spans(text), expected));
  }

  it('keeps a long quotation whole, but not one whose ends only pair across a nested quote', () => {
    const long = `"${'I put the car key on the table. '.repeat(10).trim()}"`;
    assert.deepEqual(spans(`My sentence: ${long}`), [long]);
    const nested = `Prompt: "${'Reply in one line. '.repeat(12)}My first sentence is "how is the weather?"." Adapt it.`;
    assert.deepEqual(spans(nested), ['"how is the weather?"']);
  });

  it('pairs straight quotes that open before a word and close after one: the text between two quotes is no quote', () => {
    const text = 'Give me a prompt like this: "Reply in one line. My first sentence is "how is the weather?"." (Adapt it to my title.) My first title is "Act as a coach"';
    assert.deepEqual(spans(text), ['"how is the weather?"', '"Act as a coach"']);
  });

  it('returns sorted, non-overlapping spans', () => {
    const text = 'Visit "https://a.b/c" at 10:30 am on 2024-05-01 with `code 1.2.3`.';
    const found = findProtectedSpans(text);
    for (let i = 1; i < found.length; i++) assert.ok(found[i]!.start >= found[i - 1]!.end);
  });
});
