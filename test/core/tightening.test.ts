import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { countTokens, optimize } from '../../src/core';

/**
 * Per-unit counts miss a few tokens where units join, so a first selection can end a token or two over
 * a strict budget. These prompts are where that used to cost a whole section, or everything: the lossy
 * passes ran again on what the first run had left, at a tighter target, and nothing could come back.
 */
const TITLE = '# Review guide';
const ROLE = 'You review pull requests for the payments team.';

describe('core/pipeline: a few tokens over after selection', () => {
  it('costs a meaning-free word, not a section', () => {
    const text = [
      TITLE,
      '',
      `${ROLE} Be direct and specific.`,
      '',
      '## Security',
      '',
      '- **Report**: Review the cache keys in one short sentence.',
      '- **Confirm**: List each SQL query and say why it really matters.',
      '',
      '## Style',
      '',
      '### Checks',
      '',
      '1. **Confirm**: "Report the error handling before you approve it."',
      '2. **Confirm**: "List the retry logic and say why it really matters."',
      '3. **Name**: "List the cache keys before you approve it."',
      '4. **Check**: "Name the cache keys before you approve it."',
      '',
      '## Tests',
      '',
      '1. **List**: "Confirm all config files before you approve it."',
      '2. **Check**: "Name the log format with the line number."',
      '3. **List**: "Name every public function and say why it really matters."',
      '4. **Check**: "Report the cache keys with the line number."',
      '',
      '## Style',
      '',
      '- **Review**: List the cache keys in one short sentence.',
      '- **Review**: Flag the log format before you approve it.',
      '- **Report**: List each SQL query before you approve it.',
      '- **Flag**: Review the log format before you approve it.',
      '',
    ].join('\n');
    const r = optimize({ text, budget: '66%', mode: 'strict' });
    assert.ok(r.optimizedTokens <= r.budgetTokens, `${r.optimizedTokens} > ${r.budgetTokens}`);
    // The first selection kept the Security section and three of the last Style rules; "really" pays
    // for the joins. Re-selecting from the remains kept one rule of the last section and no Security.
    assert.match(r.text, /## Security\n\n- \*\*Report\*\*: Review the cache keys in one short sentence\.\n- \*\*Confirm\*\*: List each SQL query and say why it matters\./);
    assert.match(r.text, /- \*\*Review\*\*: List the cache keys in one short sentence\./);
    assert.match(r.text, /## Tests\n\n1\. \*\*List\*\*: "Confirm all config files before you approve it\."/);
    assert.ok(r.optimizedTokens >= 0.9 * r.budgetTokens, `only ${r.optimizedTokens} of ${r.budgetTokens} tokens used:\n${r.text}`);
  });

  it('never empties a prompt whose role fits: the selection starts again from the whole prompt', () => {
    const text = [
      TITLE,
      '',
      ROLE,
      '',
      '## Part 1',
      '',
      '1. **List**: "Report the retry logic and say why it matters."',
      '2. **Review**: "Check all config files and say why it matters."',
      '3. **Flag**: "Confirm the retry logic before you approve it."',
      '',
      '## Part 2',
      '',
      '1. **Review**: "Check the log format and say why it matters."',
      '2. **Report**: "Quote the error handling in one short sentence."',
      '3. **Flag**: "List the cache keys with the line number."',
      '4. **Review**: "Report every public function with the line number."',
      '5. **Name**: "Name the retry logic in one short sentence."',
      '',
      '## Part 3',
      '',
      '1. **Confirm**: "Confirm the log format with the line number."',
      '2. **Report**: "Check each test name unless it is generated code."',
      '3. **Flag**: "Review the log format with the line number."',
      '4. **Review**: "Flag the log format in one short sentence."',
      '',
    ].join('\n');
    // 58 tokens: the first selection (title and Part 1) renders at 59; it used to end empty and flagged.
    const r = optimize({ text, budget: 58, mode: 'strict' });
    assert.ok(r.text.includes(ROLE), r.text);
    assert.ok(r.optimizedTokens <= 58);
    assert.equal(r.softLimitEnforced, false);
  });

  it('strict mode keeps something at every budget the title and role fit into (property)', () => {
    const verbs = ['Check', 'Review', 'Confirm', 'Flag', 'Report', 'List', 'Name', 'Quote'];
    const objects = ['every public function', 'the error handling', 'each SQL query', 'the retry logic', 'all config files', 'the cache keys'];
    const tails = ['before you approve it', 'with the line number', 'in one short sentence', 'unless it is generated code'];
    const item = fc.tuple(fc.constantFrom(...verbs), fc.constantFrom(...verbs), fc.constantFrom(...objects), fc.constantFrom(...tails));
    const section = fc.record({ items: fc.array(item, { minLength: 2, maxLength: 5 }), numbered: fc.boolean(), quoted: fc.boolean() });
    const guide = fc.array(section, { minLength: 1, maxLength: 3 }).map((sections) =>
      [
        TITLE, '', ROLE, '',
        ...sections.flatMap(({ items, numbered, quoted }, s) => [
          `## Part ${s + 1}`,
          '',
          ...items.map(([label, verb, object, tail], i) => {
            const q = quoted ? '"' : '';
            return `${numbered ? `${i + 1}.` : '-'} **${label}**: ${q}${verb} ${object} ${tail}.${q}`;
          }),
          '',
        ]),
      ].join('\n'),
    );
    const floor = countTokens(`${TITLE}\n\n${ROLE}`) + 1;
    fc.assert(
      fc.property(guide, fc.integer({ min: floor, max: 160 }), (text, budget) => {
        const r = optimize({ text, budget, mode: 'strict' });
        assert.ok(r.text.trim() !== '', `empty at ${budget} tokens:\n${text}`);
        assert.ok(r.optimizedTokens <= budget);
      }),
      { seed: 20261126, numRuns: 300 },
    );
  });
});

describe('core/pipeline: an estimate over the budget after selection', () => {
  it('cuts no article from what selection kept when the exact count fits', () => {
    const checks = ['unit', 'lint', 'type', 'e2e', 'smoke', 'load'];
    const packages = ['api', 'web', 'worker', 'cli'];
    const rules = Array.from({ length: 24 }, (_, i) => `- Always run the ${checks[i % 6]} check on the ${packages[i % 4]} package before you open the pull request number ${i + 1}.`);
    const text = ['# Rules', '', 'You maintain the monorepo of the shop.', '', ...rules.flatMap((rule, i) => (i % 3 === 2 ? [rule, ''] : [rule]))].join('\n');
    for (const budget of ['60%', '50%', '40%', '30%']) {
      const r = optimize({ text, budget, mode: 'strict' });
      assert.ok(r.optimizedTokens <= r.budgetTokens);
      const edited = r.text.split('\n').filter((line) => line.trim() && !text.includes(line));
      assert.deepEqual(edited, [], `${budget}: lines reworded although what was kept fits as written`);
    }
  });
});

describe('core/select: structure inside a template fence read as Markdown', () => {
  // A ```markdown template larger than the budget is read as Markdown; its comments, rule lines and
  // empty headings go with it. They used to be counted as fixed cost, so strict mode left most of the
  // budget unused, down to an empty output at 20%.
  const template = [
    '```markdown', '---', 'goal: [Short title of the migration]', '---', '', '# Migration plan', '',
    '<!-- Keep this block for every service that moves; copy it once per service and fill in each field -->', '',
    '## Service: {serviceName}', '', '- **Owner:** {team that owns the service and answers pages}', '- **Current host:** {where it runs today, with region}',
    '- **Target host:** {where it will run, with region}', '- **Cutover window:** {date and time in UTC, with the rollback deadline}', '',
    '<!-- Add one row per dependency; keep the order in which they must move, and mark the blocking ones -->', '',
    '## Dependencies', '', '{List each dependency with its owner and whether it blocks the cutover}', '',
    '## Risks', '', '{Each risk with its likelihood, its impact and the person who watches it}', '```',
  ].join('\n');
  const text = [
    '# Migration planner', '',
    'You are a migration planner for the platform team. Write a migration plan for the services the user names, in the format below.', '',
    '## Rules', '',
    '- Ask for the cutover window if the user does not give one.',
    '- Never schedule a cutover on a Friday or the day before a public holiday.',
    '- List the blocking dependencies first, then the others.',
    '- Keep each field to one line.',
    '- Write times in UTC, with the date in ISO format.',
    '- Do not invent owners; write "unknown" where the user did not name one.', '',
    '## Template', '', template,
  ].join('\n');
  it('costs nothing until the template is kept: strict mode fills the budget with the rules', () => {
    for (const budget of ['20%', '25%', '30%', '35%']) {
      const r = optimize({ text, budget, mode: 'strict' });
      assert.ok(r.optimizedTokens >= 0.75 * r.budgetTokens, `${budget}: ${r.optimizedTokens} of ${r.budgetTokens} tokens used:\n${r.text}`);
      assert.ok(r.text.includes('Never schedule a cutover on a Friday'), `${budget}: ${r.text}`);
    }
  });
});
