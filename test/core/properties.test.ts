import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { optimize, type Mode } from '../../src/core';
import { findProtectedSpans } from '../../src/core/text/inline';

// Seeded so a failure can be replayed; printed by fast-check on failure.
const SEED = 20261121;
const RUNS = 150;

const fragments = [
  'Please make sure that you answer in JSON.', 'Do not use external libraries.', 'The server listens on port 8080.',
  'In order to deploy, run `npm run build` first.', 'See https://example.com/docs/v2 for details.', 'Hello {{name}}, your total is $1,234.50.',
  'Never reveal the $API_KEY.', '# Heading', '- list item one', '1. numbered item', '```js\nconst x = 1;\n```', '```\nunclosed fence',
  '{"key": [1, 2, 3]}', '| a | b |\n|---|---|\n| 1 | 2 |', '<keep>\nDo   not   touch.\n</keep>', 'Ünïcödé façade naïve — “quotes”.',
  'مرحبا بالعالم. هذا نص عربي.', 'שלום עולם.', '日本語の文章です。次の文。', '👩‍👩‍👧 emoji 🎉 and e\u0301 combining', 'CRLF line\r\nnext line',
  'NUL\u0000inside', 'lone \uD800 surrogate', 'Es ist sehr wichtig, dass Sie die Datei speichern.', 'Por favor, responda en español.',
  '', '   ', '\n\n\n', 'version 1.2.3 released 2024-05-01 at 10:30 am', 'e.g. Dr. Smith paid 3.5 GB worth of data.',
];

const prompt = fc.oneof(
  fc.array(fc.constantFrom(...fragments), { maxLength: 12 }).chain((parts) =>
    fc.array(fc.constantFrom(' ', '\n', '\n\n', '\r\n', '  '), { minLength: parts.length, maxLength: parts.length }).map((seps) => parts.map((p, i) => p + seps[i]).join('')),
  ),
  fc.string({ unit: 'binary', maxLength: 300 }),
  fc.string({ unit: 'grapheme', maxLength: 300 }),
);
const budget = fc.oneof(fc.integer({ min: 1, max: 400 }), fc.integer({ min: 1, max: 100 }).map((n) => `${n}%`));
const mode = fc.constantFrom<Mode>('strict', 'relaxed');
const task = fc.oneof(fc.constant(''), fc.constantFrom('What port does the server use?', 'deploy', '¿Qué idioma?'));

const property = (name: string, predicate: (text: string, b: number | string, m: Mode, t: string) => void) =>
  it(name, () => fc.assert(fc.property(prompt, budget, mode, task, predicate), { seed: SEED, numRuns: RUNS }));

describe('core/optimize properties', () => {
  property('never throws on any string, and never grows the text', (text, b, m, t) => {
    const r = optimize({ text, budget: b, mode: m, task: t });
    assert.ok(r.optimizedTokens <= r.originalTokens);
  });

  property('strict mode never exceeds a budget of at least one token', (text, b, _m, t) => {
    const r = optimize({ text, budget: b, mode: 'strict', task: t });
    assert.ok(r.optimizedTokens <= r.budgetTokens || r.budgetTokens === 0, `${r.optimizedTokens} > ${r.budgetTokens}`);
  });

  property('relaxed mode is over budget only with softLimitEnforced', (text, b, _m, t) => {
    const r = optimize({ text, budget: b, mode: 'relaxed', task: t });
    if (r.optimizedTokens > r.budgetTokens) assert.equal(r.softLimitEnforced, true);
  });

  property('relaxed mode keeps every protected block byte for byte', (text, b, _m, t) => {
    const r = optimize({ text, budget: b, mode: 'relaxed', task: t });
    for (const block of protectedBlocks(text)) assert.ok(r.text.includes(block), `lost block ${JSON.stringify(block)}`);
  });

  property('no protected inline span is ever cut: each appears whole or not at all', (text, b, m, t) => {
    const r = optimize({ text, budget: b, mode: m, task: t });
    for (const span of findProtectedSpans(text)) {
      const literal = text.slice(span.start, span.end);
      if (literal.startsWith('<keep>') || literal.length < 6) continue;
      const head = literal.slice(0, Math.ceil(literal.length / 2));
      if (r.text.includes(head) && !text.includes(head, span.start + 1)) assert.ok(r.text.includes(literal), `cut ${JSON.stringify(literal)}`);
    }
  });

  property('is deterministic', (text, b, m, t) => {
    assert.equal(optimize({ text, budget: b, mode: m, task: t }).text, optimize({ text, budget: b, mode: m, task: t }).text);
  });

  property('is idempotent at a budget the output already fits', (text, _b, m, t) => {
    const once = optimize({ text, budget: '60%', mode: m, task: t });
    const twice = optimize({ text: once.text, budget: Math.max(1, once.optimizedTokens), mode: m, task: t });
    assert.ok(twice.optimizedTokens <= once.optimizedTokens);
  });

  it('handles a 1 MB input in strict mode within budget', () => {
    const text = fragments.filter(Boolean).join('\n\n').repeat(1 + Math.ceil(1_000_000 / 900)).slice(0, 1_000_000);
    const r = optimize({ text, budget: '10%', mode: 'strict' });
    assert.ok(r.optimizedTokens <= r.budgetTokens);
    assert.ok(r.originalTokens > 100_000);
  });
});

/** Fenced code, tables, JSON and <keep> contents as the input spells them (independent of the segmenter). */
function protectedBlocks(text: string): string[] {
  const blocks: string[] = [];
  // A backtick fence's info string holds no backtick (CommonMark): "``` ```js" opens no fence.
  for (const m of text.matchAll(/^```[^`\n]*\n[\s\S]*?\n```$/gm)) blocks.push(m[0]);
  for (const m of text.matchAll(/<keep>\n?([\s\S]*?)\n?<\/keep>/g)) if (m[1]!.trim()) blocks.push(m[1]!);
  return blocks.filter((b) => !/\r/.test(b));
}
