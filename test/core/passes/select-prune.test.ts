import { strict as assert } from 'node:assert';
import { estimateTokens, keptSentences, render, sentenceText } from '../../../src/core/doc';
import { prune, pruneCandidates } from '../../../src/core/passes/prune';
import { segment } from '../../../src/core/passes/segment';
import { tokenizerFor } from '../../../src/core/tokenizer';
import { select } from '../../../src/core/passes/select';
import { optimize, type Mode } from '../../../src/core';
import { isInstruction } from '../../../src/core/scoring/structure';
import { context, parse, tokenizer } from '../helpers';

const FACTS =
  'The museum opened in 1923 in a former railway station. Its collection holds 4,000 paintings. ' +
  'The roof was rebuilt after a storm in 1987. Guided tours start every hour at the main entrance. ' +
  'The café on the top floor serves lunch until 3 pm. Entry is free on the first Sunday of each month.';

/**
 * At every budget from `from`% to 95% (strict, or the modes given), `dependent` is kept only with `head`
 * (what it says nothing without).
 */
function keptOnlyWith(text: string, dependent: string | RegExp, head: string | RegExp, why: string, from = 20, modes: readonly Mode[] = ['strict']): void {
  const holds = (out: string, part: string | RegExp) => (typeof part === 'string' ? out.includes(part) : part.test(out));
  for (const mode of modes)
    for (let percent = from; percent <= 95; percent += 5) {
      const out = optimize({ text, budget: `${percent}%`, mode }).text;
      if (holds(out, dependent)) assert.ok(holds(out, head), `${mode} ${percent}%: ${why}\n${out}`);
    }
}
const BOTH: readonly Mode[] = ['strict', 'relaxed'];

/**
 * The non-blank lines of `text` optimized in strict mode at each budget, where every line that is only a bold
 * label ("**mcp.json:**") has a line after it that `over` accepts: no label over nothing.
 */
function labelsOver(text: string, budgets: readonly string[], over: (next: string | undefined) => boolean): string[][] {
  return budgets.map((budget) => {
    const out = optimize({ text, budget, mode: 'strict' }).text.split('\n').filter((l) => l.trim());
    out.forEach((line, i) => {
      if (/^\*\*[^*]+\*\*$/.test(line)) assert.ok(over(out[i + 1]), `${budget}: "${line}" stands over nothing\n${out.join('\n')}`);
    });
    return out;
  });
}

describe('core/passes/select', () => {
  it('keeps a clause title in capitals only with its clause text', () => {
    const text = [
      'Extract the rent and the deposit from the lease below.', '',
      'CLÁUSULA SEGUNDA – DO PRAZO. A locação terá o prazo de 30 (trinta) meses, com início em 1º de fevereiro de 2024.', '',
      'CLÁUSULA TERCEIRA – DO ALUGUEL. O aluguel mensal é de R$ 3.450,00, pago até o dia 5 de cada mês.', '',
      'CLÁUSULA QUINTA – DA GARANTIA. A LOCATÁRIA presta caução de 3 (três) aluguéis.',
    ].join('\n');
    for (const budget of ['80%', '60%', '40%', '25%']) {
      const out = optimize({ text, budget, mode: 'strict' }).text;
      for (const line of out.split('\n')) assert.ok(!/^CLÁUSULA [^.]+\.$/.test(line.trim()), `${budget}: a title over nothing\n${out}`);
    }
  });

  it('keeps the lead-in of a list run into one paragraph with the items it keeps, never the items alone', () => {
    const text =
      'You are the "Architect Guide", a mentor for programmers who build modules and want to understand whole architectures. ' +
      'Your primary roles and methods of guidance include: - **Basics**: Start with foundational knowledge of inter-module communication. ' +
      '- **Integration Insights**: Explain how modules integrate within a larger system, with case studies. ' +
      '- **Clarity Over Jargon**: Avoid overly technical language. - **No Coding Solutions**: Focus on architecture, never on specific code.';
    for (const budget of ['80%', '60%']) {
      const out = optimize({ text, budget, mode: 'strict' }).text;
      assert.ok(out.includes('- **'), `${budget}: no item kept, the case is not tested\n${out}`);
      assert.ok(out.includes('Your primary roles and methods of guidance include: - **'), `${budget}: items without their lead-in\n${out}`);
    }
  });

  it('reads a run of labelled rules as rules, each kept or dropped on its own, not as one set of definitions', () => {
    const text = [
      '# Async rules', '',
      '- **Naming:** all async methods end with `Async`, including the handlers of the command line.',
      '- **Always await:** never fire and forget; if timing out, cancel the pending work first.',
      '- **Timeouts:** use a linked `CancellationTokenSource` with `CancelAfter` for every outgoing call.',
      '- **Context:** use `ConfigureAwait(false)` in library code and omit it in the app entry point.',
    ].join('\n');
    const out = optimize({ text, budget: '45%', mode: 'strict' }).text;
    const items = out.split('\n').filter((line) => line.startsWith('- **'));
    assert.ok(items.length >= 1 && items.length < 4, `kept ${items.length} of 4 rules\n${out}`);
    // Whole rules: as one set of 87 tokens they fitted nowhere, and the fallback cut "Naming" to a clause.
    for (const item of items) assert.ok(text.split('\n').includes(item), `cut: ${item}`);
    assert.ok(out.includes('- **Always await:** never fire and forget'), out);
  });

  it('keeps a sentence that points back with a demonstrative ("this situation") only with the sentence it points at', () => {
    const text =
      'Act as the chief executive of a hypothetical company. Remember to remain professional in every answer you give. ' +
      'Your first challenge is to address a potential crisis situation where a product recall of the new kettle is necessary. ' +
      'How will you handle this situation, and what steps will you take?';
    for (const budget of ['90%', '75%', '60%', '45%']) {
      const out = optimize({ text, budget, mode: 'strict' }).text;
      if (out.includes('this situation')) assert.ok(out.includes('crisis situation'), `${budget}: "this situation" points at nothing\n${out}`);
    }
  });

  it('keeps "Never edit those files" and "actually run them" only with the sentence they point back to', () => {
    const text = [
      '## Generated code', '',
      'Anything under packages/api/src/generated/ is generated by Prisma and our OpenAPI generator. ' +
        "Never edit those files by hand; change `schema.prisma` and run `pnpm generate` instead.", '',
      '## Checks', '',
      'Before you say a task is done, pnpm lint, pnpm typecheck and the tests must pass for every package you touched. ' +
        'Please don\'t just say "this should work" — actually run them.', '',
      '## Style', '',
      'Use `date-fns`, not moment. Keep PRs small and focused. Treat rows with `cancelled_at` before `started_at` as never active; treat those as data errors.',
    ].join('\n');
    for (let percent = 20; percent <= 90; percent += 5) {
      const out = optimize({ text, budget: `${percent}%`, mode: 'strict', task: 'Instructions for coding agents in a monorepo.' }).text;
      if (out.includes('those files')) assert.ok(out.includes('packages/api/src/generated/'), `${percent}%: "those files" points at nothing\n${out}`);
      if (out.includes('run them')) assert.ok(out.includes('must pass'), `${percent}%: "run them" points at nothing\n${out}`);
    }
  });

  it('keeps "Don\'t try to handle those yourself." only with the sentence that names them', () => {
    const text = [
      "You are a support assistant for Acme Cloud. Be friendly and concise, and always answer in the customer's language.", '',
      'If a customer mentions a lawyer, legal action, a chargeback, or says their account was hacked, hand off to a human with the message "I\'m connecting you with a specialist now." ' +
        "Don't try to handle those yourself.", '',
      'Never share internal ticket numbers. Use the customer\'s first name. Keep replies under 120 words unless the customer asks for detail.',
    ].join('\n');
    for (let percent = 20; percent <= 95; percent += 5) {
      const out = optimize({ text, budget: `${percent}%`, mode: 'strict' }).text;
      // Before, at 50% it stayed alone: "those" pointed at nothing.
      if (/handle those/.test(out)) assert.ok(out.includes('chargeback'), `${percent}%: "those" points at nothing\n${out}`);
    }
  });

  it('keeps a request that shows its material ("I need … from this table:") as the request, not as a title that goes with the table', () => {
    const text = [
      "Hi! Super quick one, I promise. I need weekly revenue for the last 8 full weeks from this table in BigQuery:", '',
      '```sql\nCREATE TABLE shop.orders (order_id STRING, created_at TIMESTAMP, status STRING, total_eur NUMERIC);\n```', '',
      "Weeks start on Monday. Only status = 'paid' — refunded and cancelled don't count. Output week_start and revenue_eur, newest first. " +
        'The `total_eur` column already includes VAT and shipping, which is what finance wants, so no adjustments there. Timestamps are UTC. ' +
        "I think that's everything. Thanks a bunch! Just the SQL is fine, no explanation needed. Don't include the current, incomplete week.",
    ].join('\n');
    for (const mode of ['strict', 'relaxed'] as const) {
      for (let percent = 20; percent <= 95; percent += 5) {
        const out = optimize({ text, budget: `${percent}%`, mode }).text;
        assert.ok(out.includes('I need weekly revenue for the last 8 full weeks'), `${mode} ${percent}%: the request is gone\n${out}`);
        if (mode === 'relaxed') assert.ok(out.includes('CREATE TABLE shop.orders'), `${percent}%: relaxed dropped the schema\n${out}`);
        // Without its table, the request ends as a sentence, not on a colon over nothing.
        if (!out.includes('CREATE TABLE')) assert.ok(out.includes('in BigQuery.'), `${mode} ${percent}%: a colon over nothing\n${out}`);
      }
    }
  });

  it('ends a document title\'s section at the next document that opens its own paragraph ("[Doc 2] …" on its first line)', () => {
    const rows = ['| Water damage – furniture | 30,000 € | 150 € |', '| Water damage – decoration | 8,000 € | 150 € |', '| Leak detection | 1,500 € | none |'].join('\n');
    const text = [
      'Answer the customer from the documents only, and cite them as [Doc 1] or [Doc 2].', '',
      '[Doc 1] Table of covers and deductibles', `| Cover | Limit | Deductible |\n|---|---|---|\n${rows}`,
      'Furniture is paid at replacement value if it is less than 2 years old, then with a deduction of 10% a year, at most 50%.', '',
      '[Doc 2] How to declare a claim\nClaims are declared online or by phone. Above 1,600 € of damage an expert may be sent within 10 working days. Keep the damaged goods until the expert has seen them.', '',
      'Question: "My sofa was ruined by my neighbour\'s leak. Am I covered, and how much will I get?"',
    ].join('\n');
    for (let percent = 20; percent <= 95; percent += 5) {
      const out = optimize({ text, budget: `${percent}%`, mode: 'strict' }).text;
      if (out.includes('[Doc 1] Table of covers')) assert.ok(out.includes('| Cover |') || out.includes('Furniture is paid'), `${percent}%: a title over nothing\n${out}`);
    }
  });

  it('keeps the input a request points at ("Could you translate these UI strings …?", "traduire cette clause") with the request', () => {
    const strings = [
      'Hi! Could you translate these UI strings for our running app Pacewise from English into German? My German is rusty.', '',
      'Glossary (always use these):\n- workout → Training (never "Workout")\n- streak → Serie\n- Pacewise Plus → Pacewise Plus (do not translate)', '',
      'Rules: use the informal "du", keep placeholders like {count} exactly as they are, and keep each string under 40 characters. Return a JSON object with the same keys.', '',
      '```json\n{"start_cta": "Start your workout", "streak_msg": "{count}-day streak! Keep going", "greeting": "Welcome back, %1$s"}\n```', '',
      'Thanks so much, really appreciate it!',
    ].join('\n');
    const clause = [
      "Bonjour ! Pourriez-vous traduire cette clause de contrat du français vers l'anglais britannique ?", '',
      'Glossaire imposé par le client :\n- « le Prestataire » → "the Supplier"\n- « le Client » → "the Customer"', '',
      "Clause 7.4 : « En cas de retard de paiement, le Prestataire pourra suspendre l'exécution des prestations quinze (15) jours ouvrés après une mise en demeure restée sans effet. »", '',
      'Merci de garder la numérotation 7.4, de ne pas ajouter de commentaire juridique et de renvoyer uniquement la traduction.', '',
      "Merci mille fois, vous me sauvez la mise ! Je sais que c'est un peu long et que je ne suis pas très claire, mais le client attend la version anglaise pour demain matin et je n'ai vraiment pas le temps de m'en occuper moi-même. Bonne journée à vous.",
    ].join('\n');
    for (const [text, input] of [[strings, '"start_cta"'], [clause, 'quinze (15) jours ouvrés']] as const) {
      for (const budget of ['70%', '60%', '50%']) {
        const out = optimize({ text, budget, mode: 'strict' }).text;
        if (out.trim()) assert.ok(out.includes(input), `${budget}: the text to translate is gone\n${out}`);
      }
    }
  });

  it('keeps a document the request names below ("Using only the two release notes below, tell me …") with the request', () => {
    const text = [
      'Hi, quick question for you, thanks in advance. Using only the two release notes below, tell me which version of Tallyboard fixed the bug where CSV exports dropped the last row.', '',
      '[Doc 1] Release notes v4.8.2 (2024-04-02): Fixed CSV export omitting the final row when a filter was active. Improved PDF rendering speed.',
      '[Doc 2] Release notes v4.8.0 (2024-03-11): New CSV export options (delimiter, encoding). Known issue: last row may be missing from CSV exports.', '',
      'Answer with the version number only, followed by the doc number in brackets, e.g. `v1.2.3 [Doc 5]`. If neither note says, answer "unknown". No need to explain your reasoning, I just need the version. I hope that makes sense! Thanks again, you\'re the best.',
    ].join('\n');
    for (const budget of ['60%', '50%']) {
      const out = optimize({ text, budget, mode: 'strict' }).text;
      assert.ok(out.includes('tell me which version'), `${budget}: the question is gone\n${out}`);
      assert.ok(/\[Doc [12]\]/.test(out), `${budget}: both documents are gone\n${out}`);
    }
    // Relaxed mode ranks documents by value, not above the rules: never the note that does not answer for them.
    const relaxed = optimize({ text, budget: '50%', mode: 'relaxed' }).text;
    assert.ok(relaxed.includes('answer "unknown"') || !relaxed.includes('New CSV export options'), `relaxed: the note that does not answer\n${relaxed}`);
  });

  it('keeps "Then ask: …" after a block that a lead-in announced only with that block', () => {
    const text = [
      '# Context architect', '',
      'You map the files a change touches before anyone edits them.', '',
      '## When asked to make a change', '',
      'First, respond with a context map:', '',
      '```\n## Context map for: [task]\n### Primary files\n- path/to/file.ts — [why it changes]\n### Secondary files\n- path/to/related.ts — [relationship]\n### Tests\n- path/to/test.ts — [what it tests]\n```', '',
      'Then ask: "Should I proceed with this plan, or should I look at any of these files first?"', '',
      '## Guidelines', '',
      '- Always search the codebase before assuming file locations.\n- Never make changes without showing the context map first.\n- Warn about breaking changes.',
    ].join('\n');
    keptOnlyWith(text, 'Then ask', '## Context map for', '"Then ask" without the step before it');
  });

  it('keeps what announces a block kept in relaxed mode with the sentence it leans on ("Mark it with `it.skip` …:" after its condition)', () => {
    const text = [
      '# Moving the unit tests from Jest to Vitest', '',
      'Work through the files in `src/` one folder at a time and open a separate pull request for each folder you finish.',
      'Use the `vi` helpers instead of the `jest` globals, and keep every assertion exactly as it was written before.', '',
      '## Failing tests', '',
      "If a migrated test fails and you can't fix it inside its own file, do not delete the test. Mark it with `it.skip` and put a comment directly above it in exactly this form:", '',
      '```\n// TODO(vitest-migration): <one-line reason>\n```', '',
      'Never skip a whole `describe` block because one of its tests fails.', '',
      '## Checking your work', '',
      'Run `npx vitest run --changed` before you push, and make sure the number of type errors did not go up because of your changes.',
    ].join('\n');
    keptOnlyWith(text, 'Mark it with', 'If a migrated test fails', '"Mark it" would read as a rule for every test', 20, ['relaxed']);
    assert.ok(optimize({ text, budget: '20%', mode: 'relaxed' }).text.includes('// TODO(vitest-migration)'), 'relaxed mode keeps the code block');
  });

  it('never spends budget on talk to the reader, even where it fits ("Hey, can you help me with something?")', () => {
    const text = [
      'Hey, can you help me with something?', '',
      'Fill the schema below from the ticket.', '',
      '- `priority` must be one of P1, P2, P3; if the ticket does not say, use null.',
      '- Convert all times to UTC with a trailing Z.',
      '- Output the JSON only.', '',
      '```json\n{"ticket_id": "string", "priority": "P1 | P2 | P3 | null", "opened_at": "ISO 8601"}\n```', '',
      'Ticket:', '',
      'Subject: Checkout errors since the 09:10 deploy',
      'Customers in Lyon and Porto have seen HTTP 502 on checkout since 09:10 CET on 4 June 2024. Ticket T-5521 was opened by Inès at 09:25 CET.',
      'The payment provider reports no incident on their side.',
    ].join('\n');
    for (let percent = 20; percent <= 95; percent += 5) {
      const out = optimize({ text, budget: `${percent}%`, mode: 'strict' }).text;
      assert.ok(!out.includes('Hey, can you help'), `${percent}%: the greeting took budget\n${out}`);
      assert.ok(out.trim() !== '', `${percent}%: something fits`);
    }
  });

  it('keeps a bold label over the lead-in that points at it ("**ALTERNATIVE …**", "Only use this if …:") with it, and never alone', () => {
    const text = [
      '# Adding icons to a diagram', '',
      'Run `scripts/add-icon.py` with the diagram, the icon name and its x and y position; the script places the icon and gives every element a fresh ID.',
      'Then run `scripts/add-arrow.py` for each connection, from the centre of one icon to the centre of the next.', '',
      '**ALTERNATIVE: Manual icon placement (not recommended)**', '',
      'Only use this if Python is not available:', '',
      '1. Open the icon library and read its `reference.md`.',
      '2. Copy the icon elements into the diagram by hand and give each one a new ID.',
      '3. Shift every x and y coordinate by the position you want.', '',
      'Always check the finished diagram in the editor before you hand it over.',
    ].join('\n');
    keptOnlyWith(text, 'Only use this', '**ALTERNATIVE', 'the manual way would read as the recommended one', 20, BOTH);
    keptOnlyWith(text, '**ALTERNATIVE', /^\d\. /m, 'a label over nothing', 20, BOTH);
  });

  it('never keeps one half of a pair set side by side with ";" as if the other were a remark', () => {
    const text = [
      '# Reviewing pull requests', '',
      'Read the whole diff before you comment, and run the tests locally when the change touches the build or the release scripts.', '',
      "Your goal isn't just to list problems - it's to make the author question each decision while giving feedback that is technically exact. You're not here to make the author feel good about the change; you're here to help them ship code that still works next year.", '',
      '## Modes', '',
      '1. Use **update mode** when the user gives an existing document or asks to refresh one.',
      '2. Use **create mode** when the user points at source code with no document yet.',
      '3. If the request is ambiguous, infer the mode from the path type whenever possible: an existing Markdown file means update mode; a source folder means create mode.',
      '4. Never mix both modes in one answer.', '',
      'Keep every comment under 80 words and quote the line it is about.',
    ].join('\n');
    keptOnlyWith(text, 'feel good about the change', "you're here to help them ship", 'the rule lost its point', 20, BOTH);
    keptOnlyWith(text, 'means update mode', 'means create mode', 'one mode alone', 20, BOTH);
  });

  it('keeps a prompt\'s step that points back with "that" ("Import and use that Client Component") only with the step it names', () => {
    const text = [
      '# Next.js App Router', '',
      '- Keep data fetching in Server Components and pass plain props down.',
      "- Never import server-only modules into a file marked with `'use client'`.", '',
      '## Client-only code in a Server Component', '',
      'If a page needs browser APIs, split it:', '',
      "1. Move all client-only logic into a dedicated Client Component with `'use client'` at the top.",
      '2. Import and use that Client Component directly from the Server Component; do not use `next/dynamic` with `ssr: false` there.',
      '3. Keep the props serialisable: strings, numbers, plain objects.', '',
      '- Run `next build` before you open a pull request, and fix every type error it reports.',
    ].join('\n');
    keptOnlyWith(text, 'that Client Component', 'Move all client-only', '"that Client Component" points at nothing', 20, BOTH);
  });

  it('keeps a sentence of a word or two ("No?", "Agreed.") only with the sentence it answers', () => {
    const text = [
      'Summarise the retro below into decisions and action items, one line each, with the owner and the date.', '',
      "Sam: Let's look at the review times first. Greta will ask for a first review within one working day, starting Monday.",
      'Luis: I can pair on the flaky test suite on Thursday and Friday, and I will write up what we find.',
      "Sam: Okay, I'll note the deploy freeze but no decision yet. Anything else? ... No? Great, thanks everyone.",
    ].join('\n');
    keptOnlyWith(text, /\bNo\?/, 'Anything else?', '"No?" answers nothing', 20, BOTH);
  });

  it('keeps a record\'s fields ("ID: …", "Title: …") and its text together: no fields over nothing, no text without its ID', () => {
    const text = [
      "Answer the employee's question using only the policies below, and cite each one by its ID in square brackets.", '',
      '- Never guess an amount that no policy states; say that People Ops decides.',
      '- Keep the answer under 120 words.', '',
      '### Policy 1', 'ID: TR-204', 'Title: Travel Expenses (v2)', 'Effective: 2024-03-01', 'Applies to: all EU offices', '',
      "Economy class is booked for every flight under six hours, whatever the employee's grade or the client who pays for the trip, and premium economy only when a manager approves it in writing before the booking is made. " +
        'Hotels are refunded up to 140 EUR a night in capital cities and 110 EUR elsewhere, breakfast included, and anything above that limit is paid by the employee unless the event organiser chose the hotel. ' +
        'Taxis are refunded only between 22:00 and 06:00, or when public transport is on strike, and the receipt must show the route and the time of the ride.', '',
      '### Policy 2', 'ID: TR-188', 'Title: Travel Expenses (v1)', 'Effective: 2021-01-01 to 2024-02-29', 'Applies to: all offices', '',
      'Business class was allowed on flights over four hours for every employee of grade 7 and above, and for everyone on flights over nine hours, whatever the destination or the client. ' +
        'Hotels were refunded up to 120 EUR a night everywhere, breakfast excluded, and the difference could be claimed back against the monthly allowance that was paid with the salary.', '',
      '### Question', '', '"Can I fly business class to Lisbon next month, and how much of the hotel is covered?"',
    ].join('\n');
    keptOnlyWith(text, 'ID: TR-204', /Economy class is booked|Hotels are refunded up to 140|Taxis are refunded/, 'the fields of a policy over nothing', 20, BOTH);
    keptOnlyWith(text, 'ID: TR-188', /Business class was allowed|Hotels were refunded up to 120/, 'the fields of a policy over nothing', 20, BOTH);
    keptOnlyWith(text, /Business class was allowed|Hotels were refunded up to 120/, 'Title: Travel Expenses (v1)', 'the old policy without the version it belongs to', 20, BOTH);
  });

  it('keeps a rule and the instruction that weighs against it ("On the other hand, please don\'t …") together', () => {
    const text = [
      '# Moderating support chats', '',
      'Label every chat as SPAM, ABUSE or OK, and give a rationale of at most 15 words.', '',
      '- Output one line of JSON with the keys label and rationale.',
      '- Never quote personal data in the rationale.', '',
      '## Why this matters', '',
      "Abuse is rare but the most serious, so when you're torn between ABUSE and OK for a chat that insults an agent, lean towards ABUSE and let a human decide. " +
        "On the other hand, please don't flag ordinary complaints about prices: if the team has to read hundreds of false alarms a day, they'll stop trusting the labels.",
    ].join('\n');
    keptOnlyWith(text, 'lean towards ABUSE', "don't flag ordinary complaints", 'the rule without what weighs against it', 20, BOTH);
  });

  it('keeps a qualifying label over sub-sections ("**For AI/Agent Systems:**") with whatever is kept under it', () => {
    const text = [
      '## Step 2: Well-Architected review', '',
      'Apply the pillars that fit the system type.', '',
      '**For AI/Agent Systems:**', '',
      '### Reliability (AI-Specific)\n- Model fallbacks when the primary model is down\n- Handle non-deterministic answers with retries and checks', '',
      '### Security (Zero Trust)\n- Never trust, always verify every tool call\n- Protect model weights and prompts from exfiltration', '',
      '### Cost Optimization\n- Right-size models per task\n- Cache embeddings and frequent answers',
    ].join('\n');
    keptOnlyWith(text, /^- /m, '**For AI/Agent Systems:**', 'AI-only checks without their qualifier');
  });

  it('keeps a section\'s "Use when: …" with whatever is kept of the section', () => {
    const text = [
      '# Diagnosing bad search quality', '',
      'Before tuning, establish baselines: use exact KNN as ground truth and compare it with approximate HNSW.', '',
      '## Approximate search worse than exact', '',
      'Use when: exact search returns good results but HNSW approximation misses them.', '',
      '- Increase `hnsw_ef` at query time\n- Increase `ef_construct` (200+ for high quality)\n- Increase `m` (16 default, 32 for high recall)', '',
      '## Unoptimized search pipeline', '',
      'Use when: exact search also returns bad results and the model choice is confirmed by the user.', '',
      'Optimize the search according to the advanced search-strategies skill.',
    ].join('\n');
    keptOnlyWith(text, 'Optimize the search', 'Use when: exact search also returns bad results', 'the step without its condition');
    keptOnlyWith(text, /`hnsw_ef`|`ef_construct`|`m`/, 'Use when: exact search returns good results', 'tuning without its condition');
  });

  it('keeps the one table the prompt names ("Use the numbers from the table only") while it takes at most half of the budget', () => {
    const rows = ['| DACH | Web | 1,402 | 1,380 |', '| Nordics | Web shop | 377 | 450 |', '| France | Retail | 990 | 1,150 |'].join('\n');
    const text = [
      "Hi! I'm putting together the quarterly review deck and I'd love some help with the commentary for the sales slide. I'm not a numbers person at all, so please bear with me.", '',
      "I triple-checked that I copied it right, but you never know with me. Honestly I hope this is enough context, I'm sorry it's a bit of a mess, and thanks so much in advance for looking at it, it really means a lot.", '',
      `| Region | Channel | Q2 2024 | Plan |\n|---|---|---:|---:|\n${rows}`, '',
      '- The Nordics web shop moved to a new platform in May, with two weeks of checkout problems.',
      '- One French retail partner closed 6 of its 28 stores in the quarter.',
      '- Prices went up 3% across all channels on 1 April.', '',
      'Write a commentary of at most 120 words in British English. Use the numbers from the table only, and do not recommend actions.',
    ].join('\n');
    for (const budget of ['70%', '65%', '60%']) {
      const out = optimize({ text, budget, mode: 'strict' }).text;
      assert.ok(out.includes('| Nordics | Web shop | 377 | 450 |') && out.includes('Use the numbers from the table only'), `${budget}: the table the prompt asks about is gone\n${out}`);
    }
  });

  it('takes a database table named by its identifier ("in die Tabelle `rechnung_archiv`") for no mention of the prompt\'s Markdown table', () => {
    const text = [
      '# Anweisungen für den Abrechnungsdienst', '',
      'Diese Datei ist für Copilot und andere Agenten gedacht, die im Verzeichnis `services/abrechnung/` arbeiten. Der Dienst ist in Kotlin mit Spring Boot 3.2 geschrieben und läuft auf Java 21.', '',
      'Die Integrationstests brauchen einen laufenden Docker-Daemon und dauern ungefähr 6 Minuten. Wir wissen, dass die Testabdeckung im Paket `mahnwesen` noch schlecht ist (etwa 41 %), das ist bekannt und kein Grund, den PR zu blockieren.', '',
      '| Umgebung | URL | Datenbank |', '|---|---|---|', '| dev | https://dev.abrechnung.example | abr_dev |', '| staging | https://stg.abrechnung.example | abr_stg |', '| prod | https://abrechnung.example | abr_prod |', '',
      '## Regeln', '',
      '1. Beträge werden **immer** als `BigDecimal` mit `RoundingMode.HALF_EVEN` gerechnet, **NIEMALS** als `Double` oder `Float`.',
      '2. **NIEMALS** direkt in die Tabelle `rechnung_archiv` schreiben; dafür gibt es ausschließlich den `ArchivService`.',
      '3. Neue Endpunkte müssen unter `/api/v2/` liegen.', '4. Logge keine IBANs oder Kartennummern.', '5. Keine neuen Abhängigkeiten ohne Freigabe in `#arch-review`.',
    ].join('\n');
    // Before, the environments table was pinned as the table the text asks about: at 50% it took the room of two rules.
    const out = optimize({ text, budget: '50%', mode: 'strict' }).text;
    const rules = ['BigDecimal', 'rechnung_archiv', '/api/v2/', 'IBANs', '#arch-review'].filter((r) => out.includes(r)).length;
    assert.ok(rules >= 4, `${rules} of 5 rules\n${out}`);
  });

  it('keeps "However, …" only with the sentence it contrasts with', () => {
    const text = [
      '# React 19 audit', '',
      'You audit a React 18 codebase before the upgrade and never edit files.', '',
      '## Refs', '',
      'React 19 lets function components take a ref directly as a prop in the same way as any other prop they receive from their parent. However, never flag `forwardRef` in `src/legacy/` as an error: it remains supported.', '',
      '## Report', '',
      '- List every file that calls `ReactDOM.render`.\n- List every `defaultProps` on a function component.\n- Count the string refs.',
    ].join('\n');
    keptOnlyWith(text, 'However', 'as a prop', '"However" contrasts with nothing');
  });

  it('keeps a list item that leans on the item before it ("- Does it follow team conventions?") only with that item', () => {
    const text = [
      '# DevOps reviewer', '',
      'You review infrastructure changes for the platform team and never approve a change without a rollback plan.', '',
      '**Questions to ask**:', '',
      '- Is the deployment script for the payments service testable in staging?',
      '- Does it follow the team conventions for Terraform modules and naming?',
      '- Never approve secrets in plain text in `terraform.tfvars` or in CI variables.',
      '- Check that every alert links a runbook in `docs/runbooks/`.',
    ].join('\n');
    keptOnlyWith(text, 'Does it follow', 'Is the deployment script', '"it" points at nothing');
  });

  it('reads a lead-in that talks to the reader ("I know it\'s a lot of rules, but …:") as an aside, not as the title of its list', () => {
    const text = [
      '## Output rules', '',
      "Please read these carefully — I know it's a lot of rules, but each one of them has broken the pipeline at least once:", '',
      '1. Return only the JSON object, with no explanation before or after it.',
      '2. Dates must be in ISO 8601 format (YYYY-MM-DD).',
      '3. Amounts are JSON numbers with two decimals, without currency symbols.',
      '4. If a field is not on the invoice, use null — never guess.',
    ].join('\n');
    for (let percent = 50; percent <= 95; percent += 5) {
      const out = optimize({ text, budget: `${percent}%`, mode: 'strict' }).text;
      assert.ok(!out.includes("I know it's a lot"), `${percent}%: the aside was kept as the list's title\n${out}`);
      assert.ok(/^\d\. /m.test(out), `${percent}%: no rule kept\n${out}`);
    }
  });

  it('never keeps a greeting for the deictic sentence after it ("Hey, welcome! This file is for …")', () => {
    const text =
      'Hey, welcome! This file is for any AI coding agent (Codex, Claude, Copilot) working in this repo.\n\n' +
      'Never push directly to `main`. Run `pnpm lint` before every commit. Commit messages follow Conventional Commits.';
    for (let percent = 60; percent <= 95; percent += 5) {
      const budget = `${percent}%`;
      const out = optimize({ text, budget, mode: 'strict', task: 'Instructions for coding agents.' }).text;
      assert.ok(!out.includes('Hey, welcome'), `${budget}: the greeting came with the sentence after it\n${out}`);
    }
  });

  it('reads a Chinese sentence with a Latin acronym as text, not as a title its paragraph depends on', () => {
    const text = 'NFL的超级碗第五十届比赛在二零一六年举行并由CBS转播。比赛在加州圣克拉拉的李维斯体育场举行，观众超过七万人。丹佛野马队赢得了比赛。';
    assert.equal(optimize({ text, budget: 25, mode: 'strict', task: '比赛在哪个体育场举行？' }).text, '比赛在加州圣克拉拉的李维斯体育场举行，观众超过七万人。');
  });

  it('keeps a bold label paragraph ("**mcp.json:**", "**Step 5: Verify setup**") only with what it titles', () => {
    const text = [
      '### Critical files', '', '**declarativeAgent.json:**', '- Agent instructions and conversation starters for the whole team', '- Capabilities the agent may use',
      '', '**mcp.json:**', '- MCP server URL such as https://mcp.example.com/api', '- Authentication reference for OAuth 2.0', '',
      '**Step 5: Verify setup**', 'After running the script, check that the icons folder holds 120 files.', '',
      '**Complex business logic**', '```js', '// Progressive tax brackets: 10% up to 10k, 20% above', 'const tax = calc(income);', '```', '',
      '**Regex patterns**', '```js', '// Email: local part, @, domain with one dot at least', 'const email = /^[^@]+@[^@]+\\.[^@]+$/;', '```', '',
      'Never commit .env.local to source control.',
    ].join('\n');
    for (const out of labelsOver(text, ['75%', '60%', '50%', '40%', '30%', '25%'], (next) => !!next && !/^\*\*|^#/.test(next)))
      if (out.includes('- MCP server URL such as https://mcp.example.com/api')) assert.equal(out[out.indexOf('- MCP server URL such as https://mcp.example.com/api') - 1], '**mcp.json:**', out.join('\n'));
  });

  it('keeps a bold title on a paragraph of its own ("**Linear Slider Control:**", then its screenshot) only with what it titles', () => {
    const text = [
      '## Add code components to model-driven apps', '',
      'Open the form in the designer, select the column and choose the code component from the list of available components.', '',
      '### Examples', '',
      '**Linear Slider Control:**', '',
      '![Add linear slider control](https://learn.example.com/media/add-slider.png)', '',
      '**Data Set Grid Component:**', '',
      '![Data Set Grid component](https://learn.example.com/media/add-dataset-component.png)', '',
      '## Update existing code components', '',
      'Whenever you update a code component, bump the version property in the manifest file, or the change will not show at runtime.',
    ].join('\n');
    labelsOver(text, ['90%', '75%', '60%', '50%', '40%', '30%'], (next) => !!next?.startsWith('!['));
  });

  it('keeps a bold label or a "Look for:" item only with an item nested under it, and a nested item only with its label', () => {
    const text = [
      '### Phase 2', '', '1. **Deep dive with traces**', '   - Use the tracing server to fetch the slowest transactions of the last hour.', '   - Look for:',
      '     - Slow database queries such as N+1 patterns', '     - External calls timing out after 30 seconds', '2. **Examine error analytics**',
      '   - Correlate errors with deploys of the same day and name the commit.', '3. **Post-incident recommendations**', '   - Suggest monitoring improvements and alert thresholds.',
      '', '### Phase 3', '', '1. **Locate problematic code**', '   - Open the files named in the stack trace of error E-4021 first.', '   - Cross-reference the code with trace segment names.',
      '2. **Identify the root cause**', '   - Determine the specific coding issue:', '     - Performance: missing cache, N+1 query, blocking I/O', '     - Errors: null pointer, type mismatch, bad input validation',
    ].join('\n');
    const depth = (line: string) => /^\s*/.exec(line)![0].length;
    for (const budget of ['75%', '60%', '50%', '40%', '30%', '25%']) {
      const out = optimize({ text, budget, mode: 'strict' }).text.split('\n').filter((l) => l.trim());
      out.forEach((line, i) => {
        const label = /^\s*(?:\d+\.|-) (?:\*\*[^*]+\*\*|[^:]+:)$/.test(line);
        if (label) assert.ok(i + 1 < out.length && depth(out[i + 1]!) > depth(line), `${budget}: "${line}" stands over nothing\n${out.join('\n')}`);
        if (depth(line) > 0) assert.ok(out.slice(0, i).some((l) => depth(l) < depth(line)), `${budget}: "${line}" has no parent`);
      });
    }
  });

  it('keeps "Something along those lines is perfect" only with the example before it, with a task too', () => {
    const text =
      'Write the commentary for the Q2 regional sales table. For tone, here is a sentence from last quarter: "Q1 revenue was flat at €7.2m, 4.1% below plan." ' +
      'Something along those lines is perfect — short sentences, numbers first, no adjectives like "impressive". Mention the gap to plan in € and %.';
    for (const task of ['', 'Commentary on regional sales for leadership']) {
      for (const budget of ['85%', '70%', '55%', '40%']) {
        const out = optimize({ text, budget, mode: 'strict', task }).text;
        if (out.includes('along those lines')) assert.ok(out.includes('Q1 revenue was flat'), `${budget} ${task}: "those lines" point at nothing\n${out}`);
      }
    }
  });

  it('never keeps a sentence that only points at what follows ("以下の内容でお願いします。", "See below.") on its own', () => {
    const ja = 'ユーザーの発話を意図ごとに分類したいと考えています。以下の内容でお願いします。\n\nルール：\n- 1つの発話にラベルは必ず1つだけ付けてください。\n- 出力はラベル名のみで、説明や記号は付けないでください。';
    const en = 'We sort support tickets by queue. See below.\n\nRules:\n- Every ticket gets exactly one queue.\n- Reply with the queue name only, never an explanation.';
    for (const text of [ja, en]) for (const budget of ['80%', '60%', '40%']) {
      const out = optimize({ text, budget, mode: 'strict' }).text;
      assert.ok(!out.includes('以下の内容でお願いします') && !out.includes('See below'), `${budget}: a pointer kept\n${out}`);
    }
  });

  it('keeps a transcript turn that opens on its topic alone ("Luis: Code reviews.") only with what follows on its line', () => {
    const text = [
      'Summarize the retro below into decisions and action items.', '',
      'Greta: Went well: we shipped the refund API on time, which was the riskiest item of the sprint.',
      'Luis: Code reviews. Some PRs waited more than two days for review. My currency-rounding fix sat for three days.',
      'Sam: Staging. It broke twice because the ledger team changed their API without telling anyone.',
      'Greta: Let us agree that every PR gets a first review within one working day.',
    ].join('\n');
    for (const budget of ['85%', '70%', '55%', '40%']) {
      const out = optimize({ text, budget, mode: 'strict' }).text;
      for (const topic of ['Luis: Code reviews.', 'Sam: Staging.']) {
        const line = out.split('\n').find((l) => l.startsWith(topic.split(':')[0]!));
        if (line) assert.notEqual(line.trim(), topic, `${budget}: a topic alone\n${out}`);
      }
    }
  });

  it('keeps a transcript\'s decisions and commitments over its chatter ("Greta: Sure, I\'ll do it by Friday.")', () => {
    const en = [
      'Summarize the meeting below into minutes.', '',
      'Sam: Who wants to kick off today? I think most people are here now, apart from Ola.',
      'Luis: The coffee machine on the third floor is broken again, somebody should look at it at some point.',
      'Greta: Code reviews were slow. Some PRs waited more than two days for a first look.',
      'Hana: Let\'s make that a team agreement: first review within one working day.',
      'Greta: Sure, I\'ll update the working agreement page by Friday.',
      'Sam: It feels like this sprint went on forever, honestly, and the weather did not help either.',
      'Priyanka: My cat sat on the keyboard during the demo yesterday, which was funny in hindsight.',
    ].join('\n');
    const es = [
      'Resume la reunión siguiente en un acta.', '',
      'Marta: ¿Empezamos? Creo que ya estamos casi todos conectados, menos Andrés.',
      'Javier: El wifi de la sala sigue yendo fatal, como siempre, a ver si alguien lo mira.',
      'Lucía: El módulo de pagos todavía falla con las tarjetas de prueba de algunos bancos.',
      'Marta: Entonces acordamos retrasar el lanzamiento al lunes 24 de marzo.',
      'Javier: Vale, me encargo yo del arreglo de pagos antes del jueves.',
      'Lucía: Qué semana más larga, de verdad, a ver si la próxima es más tranquila para todos.',
      'Andrés: Yo llego tarde porque el tren se ha quedado parado media hora en Atocha otra vez.',
    ].join('\n');
    // A turn that only greets the room or acknowledges ("Combinado.") is no decision.
    const pt = [
      'Resuma a reunião abaixo em uma ata.', '',
      'Renata Souza: Bom dia, pessoal.',
      'Paulo Mendes: Ainda estamos com atraso de uns três dias nas entregas para o Sul, por falta de motoristas.',
      'Renata Souza: Então fica decidido: vamos contratar a transportadora Rápido Sul até o fim de junho.',
      'Paulo Mendes: Combinado.',
      'Thiago Alves: Gente, alguém viu que a cafeteira do terceiro andar quebrou de novo esta semana?',
      'Fernanda Lima: Kkkk, de novo não, semana passada também ficou parada uns dois dias.',
      'Thiago Alves: Eu cuido do levantamento de horas extras até sexta, dia 7.',
    ].join('\n');
    for (const [text, kept] of [[en, ['team agreement', 'by Friday']], [es, ['acordamos', 'me encargo']], [pt, ['fica decidido', 'Eu cuido']]] as const)
      for (const mode of BOTH)
        for (const budget of ['60%', '50%', '40%']) {
          const out = optimize({ text, budget, mode }).text;
          for (const k of kept) assert.ok(out.includes(k), `${mode} ${budget}: ${k} lost\n${out}`);
          assert.ok(!/Bom dia|Combinado/.test(out), `${mode} ${budget}: a greeting or an acknowledgement kept\n${out}`);
        }
  });

  it('keeps the quoted question of the paragraph before a closing rule ("Voici la question d\'un salarié : « … ? »")', () => {
    const docs = (n: number, lang: 'fr' | 'de') =>
      Array.from({ length: n }, (_, i) => lang === 'fr'
        ? `<document id="${i + 1}" titre="Note RH ${i + 1}">\nLes salariés du site ${i + 1} ont droit à ${i + 2} jours de congé supplémentaires par an. La demande se fait dans l'outil interne au moins ${i + 5} jours avant.\n</document>`
        : `<dokument id="${i + 1}" titel="Rundschreiben ${i + 1}">\nBeschäftigte am Standort ${i + 1} erhalten ${i + 2} zusätzliche Urlaubstage pro Jahr. Der Antrag erfolgt mindestens ${i + 5} Tage vorher im internen Portal.\n</dokument>`).join('\n\n');
    const fr = `Utilise uniquement les documents ci-dessous et cite la source entre crochets.\n\n${docs(3, 'fr')}\n\nVoici la question d'un salarié : « Je travaille sur le site 2 depuis un an. Combien de jours de congé supplémentaires ai-je par an ? »\n\nMerci de répondre en deux phrases maximum.`;
    const de = `Stütze dich nur auf die Dokumente unten und nenne die Quelle in eckigen Klammern.\n\n${docs(3, 'de')}\n\nUnd jetzt die eigentliche Frage einer Kollegin: „Ich arbeite am Standort 2. Wie viele zusätzliche Urlaubstage habe ich pro Jahr?“\n\nAntworte in höchstens zwei Sätzen.`;
    for (const [text, question] of [[fr, 'Combien de jours'], [de, 'Wie viele zusätzliche']] as const)
      for (const budget of ['60%', '45%']) {
        const out = optimize({ text, budget, mode: 'strict' }).text;
        assert.ok(out.includes(question), `${budget}: the question is gone\n${out}`);
      }
  });

  it('keeps, in strict mode, the schema whose columns the prompt names ("ciudad", "total_gastado") over prose that names none', () => {
    const text = [
      'Perdona la molestia, pero llevo toda la mañana peleándome con una consulta y no consigo que salga bien del todo.',
      'Te cuento un poco el contexto para que lo entiendas mejor, porque el equipo es nuevo y vamos con prisa estas semanas.',
      'Lo que necesito es: para cada ciudad, el cliente que más ha gastado en 2023, contando solo los pedidos que no estén cancelados.',
      'Los clientes sin ciudad no deben aparecer.',
      'El resultado tiene las columnas ciudad, nombre y total_gastado.', '',
      '```sql',
      'CREATE TABLE clientes (id INT PRIMARY KEY, nombre VARCHAR(100) NOT NULL, ciudad VARCHAR(50));',
      'CREATE TABLE pedidos (id INT PRIMARY KEY, cliente_id INT NOT NULL, importe DECIMAL(10,2), estado VARCHAR(20), fecha DATE);',
      '```', '',
      'Normalmente estas cosas las hace mi compañero, pero está de vacaciones hasta el mes que viene y no quiero molestarle.',
      'La verdad es que el año pasado ya tuvimos problemas parecidos con otra consulta y tardamos bastante en resolverlos.',
    ].join('\n');
    for (const budget of ['60%', '50%']) {
      const out = optimize({ text, budget, mode: 'strict' }).text;
      assert.ok(out.includes('CREATE TABLE pedidos'), `${budget}: the schema is gone\n${out}`);
    }
  });

  it('keeps "in so einem Fall" and "any other tariff" only with the sentence they point back at', () => {
    const de = 'Du beantwortest Fragen zu Dienstreisen. Stütze dich nur auf die Dokumente unten. Nenne bei jeder Aussage die Quelle in eckigen Klammern. ' +
      'Wenn sich Dokumente widersprechen, gilt immer das neuere Dokument. Weise in so einem Fall kurz auf den Widerspruch hin. Antworte in höchstens fünf Sätzen und ohne Aufzählungen.';
    keptOnlyWith(de, 'in so einem Fall', 'widersprechen', '"in so einem Fall" points at the case before it', 20, BOTH);
    const fr = 'Tu réponds aux adhérents de la mutuelle Horizon. Ne communique jamais le numéro de sécurité sociale. Réponds toujours en français, en trois phrases au plus. ' +
      'Les formules actuelles : « Essentielle » à 38,50 €/mois, « Confort » à 61,20 €/mois (tarifs 2025). N\'invente aucun autre tarif.';
    keptOnlyWith(fr, 'aucun autre tarif', '38,50', '"aucun autre tarif" means nothing without the tariffs', 20, BOTH);
  });

  it('keeps "この変更を必ずお伝えください" only with the change it names, and never a closing "let me know if anything is unclear" as the request', () => {
    const ja = 'あなたは「さくら保険」のサポート担当AI「ミナ」です。回答は300文字以内にしてください。医療に関する助言は行わないでください。' +
      'なお、2025年4月1日から保険料の口座振替日が毎月27日に変更になります。お客様から引き落とし日について質問があった場合は、この変更を必ずお伝えください。';
    keptOnlyWith(ja, 'この変更', '毎月27日', '"この変更" points at the change before it', 20);
    const asked = `${ja}\n\n何か分かりにくい点があれば教えてください。`;
    for (const budget of ['70%', '50%']) {
      const out = optimize({ text: asked, budget, mode: 'strict' }).text;
      assert.ok(!out.includes('分かりにくい点'), `${budget}: talk about the prompt kept\n${out}`);
    }
  });

  it('keeps the facts of a quoted draft over its short sentences when the draft does not fit ("Hi Mr. Okafor, … flat 3B … 12 January")', () => {
    const text = [
      'Can you rewrite my email to my landlord so it sounds firm but polite?', '',
      'My draft:',
      '"Hi Mr. Okafor, so the heating in flat 3B has been broken since 12 January and I reported it on 14 January and again on 22 January and nobody came. ' +
        'It\'s really cold. I think you have to fix it? I want it fixed soon. Also, just so you know. Thanks, Dana"',
    ].join('\n');
    for (const budget of ['80%', '70%']) {
      const out = optimize({ text, budget, mode: 'strict' }).text;
      assert.ok(out.includes('flat 3B'), `${budget}: the draft's facts went before its short sentences\n${out}`);
    }
  });

  it('keeps the first request over the role when only one of them fits', () => {
    const text = 'I want you to act as a pet behaviorist. You will help owners understand why their pet behaves as it does and devise a plan with them. ' +
      'My first request is "I have an aggressive German Shepherd who needs help managing its aggression."';
    const out = optimize({ text, budget: 22, mode: 'strict' }).text;
    assert.ok(out.includes('German Shepherd'), out);
    assert.ok(optimize({ text, budget: 40, mode: 'strict' }).text.includes('pet behaviorist'), 'both fit: both kept');
  });

  it('keeps the numbered steps of a procedure all or none', () => {
    const text = [
      'You are the janitor agent: you remove dead code and never add features.', '',
      '## Execution Strategy', '',
      '1. **Measure First**: Identify what is actually used versus what is only declared.',
      '2. **Delete Safely**: Remove code only with comprehensive tests around it.',
      '3. **Simplify Incrementally**: Change one concept at a time.',
      '4. **Validate Continuously**: Run the tests after each removal.',
      '5. **Document Nothing**: Let the code speak for itself.', '',
      'Never delete public API without a deprecation notice of at least one release.',
    ].join('\n');
    for (const budget of ['90%', '70%', '50%', '35%']) {
      const steps = optimize({ text, budget, mode: 'strict' }).text.split('\n').filter((line) => /^\d+\. \*\*/.test(line));
      assert.ok(steps.length === 0 || steps.length === 5, `${budget}: ${steps.length} of 5 steps\n${steps.join('\n')}`);
    }
  });

  it('keeps a numbered step that only forbids ("4. Do not add new dependencies.") without the steps before it', () => {
    const text = [
      'Your goal is to add input validation and error handling to the endpoint in the selected file.', '',
      'Steps:', '',
      '1. Read the selected endpoint and identify every input: path parameters, query parameters and the request body.',
      '2. Create a Pydantic v2 model for the request body if there is none yet, with length limits on every string field and a lower bound on counts.',
      '3. Replace any bare `except:` with specific exceptions. Map `NotFoundError` to HTTP 404, `PermissionDenied` to 403 and `ValidationError` to 422, and log anything else with `logger.exception` before returning 500.',
      '4. Do not add new dependencies.',
      '5. Add tests in `tests/api/` for one valid request and one request with a missing field.',
    ].join('\n');
    for (const budget of ['75%', '60%']) {
      const out = optimize({ text, budget, mode: 'strict' }).text;
      assert.ok(/(?:Do not|Don't) add new dependencies/.test(out), `${budget}: the prohibition went with the steps before it\n${out}`);
    }
  });

  it('keeps a numbered procedure as its beginning ("## Workflow", "Follow these steps:"): never step 5 without step 4', () => {
    const procedures = [
      [
        'You are a release assistant for the Harborlight monorepo. Never publish from a dirty working tree.', '',
        '## Release workflow', '',
        '1. Run `git status` and stop if anything is uncommitted.',
        '2. Run `pnpm test --filter ...[origin/main]` and wait for it to pass.',
        '3. Bump the version in `packages/core/package.json` with `pnpm changeset version`.',
        '4. Commit with the message `chore(release): vX.Y.Z` and tag it `vX.Y.Z`.',
        '5. Push the tag with `git push origin vX.Y.Z`; CI publishes to npm from the tag only.',
        '6. Post the changelog excerpt in #releases and link the CI run.', '',
        'Only release from `main`. If a step fails, report the command output and stop.',
      ],
      [
        'You help new contributors set up the Kettle & Crumb Android app. Do not suggest Fragments or XML layouts.', '',
        'Follow these steps:', '',
        '1. Install Android Studio Iguana and JDK 17.',
        '2. Clone the repository and open `android/` as the project root.',
        '3. Copy `local.properties.example` to `local.properties` and set `sdk.dir`.',
        '4. Run `./gradlew assembleDebug` once from the terminal.',
        '5. Start the `app` configuration on an emulator with API 34.',
      ],
    ];
    for (const lines of procedures)
      for (let percent = 20; percent <= 95; percent += 5) {
        const out = optimize({ text: lines.join('\n'), budget: `${percent}%`, mode: 'strict' }).text;
        const steps = out.split('\n').flatMap((line) => /^(\d)\. /.exec(line)?.[1] ?? []).map(Number);
        assert.deepEqual(steps, steps.map((_, i) => i + 1), `${percent}%: steps ${steps.join(', ')}\n${out}`);
      }
  });

  it('keeps a paragraph indented under a numbered item (an image, a note) only with that item', () => {
    const text = [
      '## Delete a code component from a canvas app', '',
      '1. Open the app where you added the code component',
      '2. On the left pane, select **Tree view**, and then select the screen with the component',
      '3. Next to the component, select **More (...)**, and then select **Delete**', '',
      '   ![Delete a code component](https://example.com/media/delete-code-component.png)', '',
      '4. Save the app to see the changes', '',
      '## Update code components', '',
      'Whenever you update a code component, change the `version` property in its manifest file, or the app keeps the old build.',
    ].join('\n');
    keptOnlyWith(text, 'delete-code-component.png', 'select **More (...)**', 'the image shows step 3');
  });

  it('ends a lead-in indented inside a list item ("   **Quick start:** If you have the path inline:") with that item', () => {
    const text = [
      '### Phase 1: Scan and read intent', '',
      '1. Run the scan script from the target project root:',
      '   ```bash', '   python3 "$SKILL_ROOT/scripts/scan.py" --output docs/codebase/.codebase-scan.txt', '   ```', '',
      '   **Quick start:** If you have the path inline:',
      '   ```bash', '   python3 /absolute/path/to/skills/acquire-codebase-knowledge/scripts/scan.py --output docs/codebase/.codebase-scan.txt', '   ```', '',
      '2. Search for `PRD`, `TRD`, `README`, `ROADMAP`, `SPEC` and `DESIGN` files and read them before any source code.',
      '3. Summarise the stated project intent in five bullet points, and never guess what the files do not say.',
    ].join('\n');
    keptOnlyWith(text, '**Quick start:**', '/absolute/path/to/skills', 'the quick start announces its command');
  });

  it('keeps "Where `$SKILL_ROOT` is …" only with the command above it that it explains', () => {
    const text = [
      'Run the scan script from the target project root:', '',
      '```bash', 'python3 "$SKILL_ROOT/scripts/scan.py" --output docs/codebase/.codebase-scan.txt', '```', '',
      'Where `$SKILL_ROOT` is the absolute path to the skill folder on this machine.', '',
      'Then read every file the scan lists under "Intent", and never skip the README even when it looks stale.',
    ].join('\n');
    keptOnlyWith(text, '$SKILL_ROOT` is', 'scripts/scan.py', 'the sentence says what a name in the command means');
  });

  it('keeps a bold label on the line above a lead-in ("**Step 5: Verify Setup**", "After running the script, verify …:") only with what the lead-in introduces', () => {
    const text = [
      '**Step 4: Run Splitter Script**', '```bash', 'python scripts/split-excalidraw-library.py libraries/aws-architecture-icons/', '```', '',
      '**Step 5: Verify Setup**', 'After running the script, verify the following structure exists:', '```',
      'libraries/aws-architecture-icons/', '  aws-architecture-icons.excalidrawlib  (original)', '  reference.md  (generated - icon lookup table)', '```', '',
      '### AI Assistant Workflow', '',
      'Always read `reference.md` first and load only the icon files the diagram needs; never load the whole library.',
    ].join('\n');
    keptOnlyWith(text, '**Step 5: Verify Setup**', 'aws-architecture-icons.excalidrawlib', 'the label titles the structure to verify');
  });

  it('keeps the section of an example ("### Example 2: Relationship Diagram", its request and what the agent does) whole or not at all', () => {
    const text = [
      '# Excalidraw diagrams', '', 'Never invent entities the user did not name. Save every diagram as a `.excalidraw` file in the workspace root.', '',
      '## Example prompts and responses', '',
      '### Example 1: Simple flowchart', '', '**User:** "Create a flowchart for user registration"', '', '**Agent generates:**',
      '1. Extract steps: "Enter email" → "Verify email" → "Set password" → "Complete"', '2. Create a flowchart with 4 rectangles and 3 arrows', '3. Save as `user-registration-flow.excalidraw`', '',
      '### Example 2: Relationship diagram', '', '**User:** "Diagram the relationship between User, Post, and Comment entities"', '', '**Agent generates:**',
      '1. Entities: User, Post, Comment', '2. Relationships: User → Post ("creates"), User → Comment ("writes")', '3. Save as `user-content-relationships.excalidraw`', '',
      '## Limitations', '', '- Text does not wrap automatically: keep labels under 30 characters.',
    ].join('\n');
    const parts = [
      ['Create a flowchart for user registration', '4 rectangles and 3 arrows', 'user-registration-flow.excalidraw'],
      ['Diagram the relationship between User', 'Entities: User, Post, Comment', 'user-content-relationships.excalidraw'],
    ];
    for (let percent = 20; percent <= 95; percent += 5) {
      const out = optimize({ text, budget: `${percent}%`, mode: 'strict' }).text;
      for (const example of parts) {
        const kept = example.filter((part) => out.includes(part)).length;
        assert.ok(kept === 0 || kept === example.length, `${percent}%: ${kept} of ${example.length} parts of an example\n${out}`);
      }
    }
  });

  it('keeps "Here are the relevant tables." and "I\'ve pasted the component and the hook." only with the blocks they present', () => {
    const schema = '```sql\nCREATE TABLE subscriptions (id bigint, user_id bigint, started_at timestamptz, cancelled_at timestamptz);\nCREATE TABLE users (id bigint, created_at timestamptz, country text);\n```';
    const tables = `I need a monthly churn cohort query for Postgres 15. Here are the relevant tables.\n\n${schema}\n\nCount a user as churned when cancelled_at is set, and never count trial users.`;
    keptOnlyWith(tables, 'Here are the relevant tables.', 'CREATE TABLE subscriptions', 'the sentence presents the schema');
    const code = '```tsx\nexport function useDashboardFilters() {\n  const [range, setRange] = useState({ from: today(), to: today() });\n  return { range, setRange };\n}\n```';
    const pasted = `The dashboard re-renders forever since the merge. I've pasted the component and the hook.\n\n${code}\n\nFind the cause and keep the signature of useDashboardFilters the same.`;
    keptOnlyWith(pasted, "I've pasted the component", 'useDashboardFilters() {', 'the sentence presents the code');
  });

  it('keeps a few-shot example of a label no kept example shows before a second example of the same label', () => {
    const text = [
      'Ordne die folgende Hotelbewertung einer dieser Klassen zu: positiv, negativ, gemischt. Antworte nur mit dem Klassennamen in Kleinbuchstaben, ohne Begründung.', '',
      'Beispiele:',
      'Bewertung: „Zimmer sauber, Frühstück top, gerne wieder!“ → positiv',
      'Bewertung: „Nichts zu meckern, alles wie beschrieben, sehr freundliches Personal.“ → positiv',
      'Bewertung: „Laut, dreckig und das Personal war unfreundlich.“ → negativ',
      'Bewertung: „Tolle Lage, aber das Bett war durchgelegen.“ → gemischt', '',
      'Bewertung: „{bewertung}“ →',
    ].join('\n');
    for (let percent = 40; percent <= 95; percent += 5) {
      const out = optimize({ text, budget: `${percent}%`, mode: 'strict' }).text;
      const labels = (out.match(/→ \p{L}+/gu) ?? []).map((l) => l.slice(2));
      if (new Set(labels).size < labels.length) assert.equal(new Set(labels).size, 3, `${percent}%: ${labels.join(', ')} before every label is shown\n${out}`);
    }
  });

  it('never keeps a transcript\'s bare question ("Me: What else?") without the answer after it', () => {
    const text = [
      'Turn this discovery call into notes for the product team: pain points with a verbatim quote each, and the budget.', '',
      'Transcript:', '',
      'Me: Thanks for making the time, Ines. Could you tell me a bit about Kinetic Path?', '',
      'Ines: Sure. We run seven physiotherapy clinics around Bristol, with about 40 clinicians in total.', '',
      'Me: And what are you using for scheduling today, across all seven of the clinics?', '',
      'Ines: We are on ClinicFlow, and have been for six years. Front desk is about 12 people across the sites.', '',
      'Me: What\'s the main frustration?', '',
      'Ines: Double bookings. "Twice last month two patients turned up for the same slot at Clifton."', '',
      'Me: What else?', '',
      'Ines: Reporting. "I have to export four different CSVs every month and stitch them together in Excel."', '',
      'Me: And the timeline?', '',
      'Ines: Our ClinicFlow contract runs out at the end of September, and we have budgeted around £18,000 a year.',
    ].join('\n');
    const answers: Record<string, string> = { "Me: What's the main frustration?": 'Double bookings.', 'Me: What else?': 'Reporting.', 'Me: And the timeline?': 'ClinicFlow contract runs out' };
    for (let percent = 20; percent <= 95; percent += 5) {
      const out = optimize({ text, budget: `${percent}%`, mode: 'strict' }).text;
      for (const [question, answer] of Object.entries(answers)) if (out.includes(question)) assert.ok(out.includes(answer), `${percent}%: "${question}" without its answer\n${out}`);
    }
  });

  it('keeps the names a lead-in enumerates ("The Swift SDK supports:") all or none, never a list that reads as complete without Linux', () => {
    const text = [
      'You are an expert on the MCP Swift SDK. Never suggest APIs that the SDK does not export, and always target Swift 6.0 or later.', '',
      '## Platform support', '',
      'The Swift SDK supports:',
      '- macOS 13.0+', '- iOS and Mac Catalyst 16.0+', '- watchOS 9.0+', '- tvOS 16.0+', '- visionOS 1.0+', '- Linux (glibc and musl)', '',
      'Use `StdioTransport` for local servers and `HTTPClientTransport` for remote ones; do not write your own transport.',
    ].join('\n');
    const names = ['macOS 13.0+', 'watchOS 9.0+', 'visionOS 1.0+', 'Linux (glibc and musl)'];
    for (let percent = 20; percent <= 95; percent += 5) {
      const out = optimize({ text, budget: `${percent}%`, mode: 'strict' }).text;
      const kept = names.filter((name) => out.includes(name)).length;
      assert.ok(kept === 0 || kept === names.length, `${percent}%: ${kept} of ${names.length} platforms\n${out}`);
    }
  });

  it('keeps the cases under an item ("- Status:", "  - Critical → failed", "  - No issues → completed") all or none, and a glossary\'s lines each on its own', () => {
    const text = [
      'You review implementation plans before any code is written. Never approve a plan that skips tests.', '',
      '- Regression risk: after all checks, assign an overall risk score of LOW, MEDIUM, HIGH or CRITICAL.',
      '- Status:', '  - Critical → failed.', '  - Non-critical → needs_revision.', '  - No issues → completed.',
      '- Output: return the JSON object described in `output_format`, and nothing else.', '',
      'Glossary (always use these):', '- workout → Training (never "Workout")', '- streak → Serie', '- Stridewell Pro → Stridewell Pro (do not translate)',
    ].join('\n');
    const cases = ['Critical → failed', 'Non-critical → needs_revision', 'No issues → completed'];
    let glossaryPart = false;
    for (let percent = 20; percent <= 95; percent += 5) {
      const out = optimize({ text, budget: `${percent}%`, mode: 'strict' }).text;
      const kept = cases.filter((c) => out.includes(c)).length;
      assert.ok(kept === 0 || kept === cases.length, `${percent}%: ${kept} of ${cases.length} cases\n${out}`);
      const entries = ['workout → Training', 'streak → Serie', 'Stridewell Pro → Stridewell Pro'].filter((e) => out.includes(e)).length;
      glossaryPart ||= entries > 0 && entries < 3;
    }
    assert.ok(glossaryPart, 'some budget keeps part of the glossary');
  });

  it('keeps a glossary of names ("« le Client » → "the Customer"") entry by entry: one entry fits where the whole glossary does not', () => {
    const text = [
      "Pourriez-vous traduire cette clause de contrat du français vers l'anglais britannique ?", '',
      'Glossaire imposé par le client :', '- « le Prestataire » → "the Supplier"', '- « le Client » → "the Customer"', '- « jours ouvrés » → "business days"', '',
      "Clause 11.2 : « En cas de manquement grave du Prestataire, le Client pourra résilier le contrat de plein droit, trente (30) jours ouvrés après l'envoi d'une mise en demeure restée sans effet, par lettre recommandée avec accusé de réception. »", '',
      'Merci de garder la numérotation 11.2, de ne pas ajouter de commentaire juridique et de renvoyer uniquement la traduction.',
    ].join('\n');
    // The request and the clause take about 78 tokens, a glossary entry with its lead about 20, the whole glossary 42.
    const out = optimize({ text, budget: 100, mode: 'strict' }).text;
    const entries = ['"the Supplier"', '"the Customer"', '"business days"'].filter((e) => out.includes(e)).length;
    assert.ok(out.includes('trente (30) jours ouvrés') && entries > 0, `the clause and part of the glossary\n${out}`);
  });

  it('keeps a list on the line right after a paragraph ("**Architecture Decision Record (ADR)** - Save to …", "- Number sequentially") only with that paragraph', () => {
    const text = [
      'You review system architecture for scale, security and cost. Never recommend a pattern without naming its trade-off.', '',
      '### For every architecture decision, create:', '',
      '**Architecture Decision Record (ADR)** - Save to `docs/architecture/ADR-[number]-[title].md`',
      '- Number sequentially (ADR-001, ADR-002, etc.)', '- Include decision drivers, options considered and the rationale', '',
      '### When to create ADRs:', '- Database technology choices', '- API architecture decisions', '- Deployment strategy changes',
    ].join('\n');
    keptOnlyWith(text, 'Number sequentially', 'Architecture Decision Record (ADR)', 'the items say how to write the record the paragraph names');
  });

  it('drops a lead-in that points at the table right above it ("… every anti-pattern above:") when the table went, and keeps its items', () => {
    const rows = ['SOQL inside a loop', 'DML inside a loop', 'Hardcoded record IDs or org-specific values', 'Empty `catch` blocks', 'String-concatenated SOQL containing user input', 'Test methods with no assertions']
      .map((r) => `| ${r} | Governor limit exception, silent failure or injection risk at scale |`);
    const text = [
      'You write Apex triggers for Salesforce orgs. Never deploy without tests that assert outcomes.', '',
      '### Hardcoded anti-patterns', '', '| Anti-pattern | Risk |', '|---|---|', ...rows, '',
      'Default fix direction for every anti-pattern above:', '- Query once, operate on collections', '- Use bind variables and `WITH USER_MODE` where appropriate', '- Assert meaningful outcomes in every test method',
    ].join('\n');
    let itemsAlone = false;
    for (let percent = 20; percent <= 95; percent += 5) {
      const out = optimize({ text, budget: `${percent}%`, mode: 'strict' }).text;
      if (out.includes('anti-pattern above')) assert.ok(out.includes('| SOQL inside a loop'), `${percent}%: points at a table that went\n${out}`);
      itemsAlone ||= out.includes('Query once') && !out.includes('| SOQL inside a loop');
    }
    assert.ok(itemsAlone, 'some budget keeps the items without the table');
  });

  it('keeps a paragraph that goes on with the sentence before a list ("in model-driven apps.") only with that list', () => {
    const text = [
      '## Component usage', '',
      'You can add code components to:', '- Columns', '- Grids', '- Sub grids', '', 'in model-driven apps.', '',
      '> **Important**: Power Apps component framework is enabled for model-driven apps by default; enable it for canvas apps in the admin center.', '',
      '## Implementing code components', '',
      'Before you start creating code components, install the Power Platform CLI and Node.js 18 or later, and never edit the generated ManifestTypes.d.ts.',
    ].join('\n');
    keptOnlyWith(text, 'in model-driven apps.', '- Grids', 'the paragraph finishes the sentence the list is part of');
  });

  it('keeps a list item that is a bare title ("- Output") only with an item nested under it', () => {
    const text = [
      '## Plan review', '',
      '- Status assignment:', '  - Critical means failed: logical paradoxes, missing root tasks, parallel conflicts or missed PRD requirements.',
      '  - No issues means completed: the plan is logically sound, fully traced and executable.',
      '- Output', '  - Return minimal JSON per `output_format` below, with every failure listed.',
      '- Scope', '  - Review only changed lines plus their immediate context, never whole files for small changes.',
    ].join('\n');
    for (const budget of ['80%', '60%', '45%', '30%']) {
      const out = optimize({ text, budget, mode: 'strict' }).text.split('\n');
      out.forEach((line, i) => {
        if (/^- (?:Output|Scope)$/.test(line)) assert.ok(/^\s+- /.test(out[i + 1] ?? ''), `${budget}: "${line}" stands over nothing\n${out.join('\n')}`);
      });
    }
  });

  it('without a task, never keeps a sentence that opens with "It"/"They" without the sentence it points back to', () => {
    const text =
      'Our office is in a quiet street near the river in the old town. The cache stores session tokens for a while. ' +
      'It is cleared on every deploy at 02:00 UTC with code E-4021 and version 3.14.2.';
    for (const budget of [20, 25, 30, 40]) {
      const out = optimize({ text, budget, mode: 'strict' }).text;
      if (out.includes("It's cleared")) assert.ok(out.includes('The cache stores'), out);
    }
    assert.ok(optimize({ text, budget: 40, mode: 'strict' }).text.includes("It's cleared"), 'both fit: both kept');
  });

  it('without a task, keeps a short rule about "they" only with the sentence that names them', () => {
    const text =
      'Act as an SEO writer for the outdoor shop Trailhead. Add three external links to trusted sources at the end of every article. ' +
      "Make sure they're not competing articles. Write in British English.";
    for (const budget of ['90%', '75%', '60%', '45%', '35%']) {
      const out = optimize({ text, budget, mode: 'strict' }).text;
      if (out.includes('competing articles')) assert.ok(out.includes('external links'), `${budget}: "they" point at nothing\n${out}`);
    }
  });

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

  it('keeps protected blocks in relaxed mode even over budget; instructions compete with prose by value', () => {
    const text = 'Never share the password. Some background that is not essential at all.\n\n```\nsecret()\n```';
    const doc = parse(text);
    select.run(doc, context(5, 'relaxed'));
    const out = render(doc);
    assert.ok(out.includes('```\nsecret()\n```'));
    assert.ok(!out.includes('background'));
    const roomy = parse(text);
    select.run(roomy, context(15, 'relaxed'));
    assert.ok(render(roomy).startsWith('Never share the password.'), render(roomy));
  });

  it('keeps a nested list item only with the item it belongs to', () => {
    const text = [
      'Rules for the review:', '', '- Check the API layer.', '  - Every handler validates input with zod.', '  - Errors return RFC 7807 problem details.',
      '- Check the database layer, which holds a lot of history and many tables that nobody has looked at for years.', '  - Never edit a released migration.', '- Keep the review short.',
    ].join('\n');
    const parentOf: Record<string, string> = {
      'Every handler validates': 'Check the API layer.', 'Errors return RFC 7807': 'Check the API layer.', 'Never edit a released migration': 'Check the database layer',
    };
    for (let share = 10; share <= 100; share += 5) {
      const out = optimize({ text, budget: `${share}%`, mode: 'strict' }).text;
      for (const [child, parent] of Object.entries(parentOf)) if (out.includes(child)) assert.ok(out.includes(parent), `${share}%: ${out}`);
    }
  });

  it('reads "[Doc 1] title: text." as text, not as a title that is never kept alone', () => {
    const text = [
      'Using only the two release notes below, tell me which version fixed the bug where CSV exports dropped the last row.', '',
      '[Doc 1] Release notes v4.8.2 (2024-04-02): Fixed CSV export omitting the final row when a filter was active. Improved PDF rendering speed and memory use on large files.',
      '[Doc 2] Release notes v4.8.0 (2024-03-11): New CSV export options for delimiter and encoding. Redesigned the settings page and its navigation.',
    ].join('\n');
    for (const budget of ['70%', '60%']) {
      const out = optimize({ text, budget, mode: 'strict', task: 'Which version fixed CSV exports dropping the final row?' }).text;
      assert.ok(out.includes('[Doc 1] Release notes v4.8.2 (2024-04-02): Fixed CSV export omitting the final row'), `${budget}: ${out}`);
    }
  });

  it('keeps a quoted essay that a line names as the request does ("grade the essay below", then "Essay:") whole in relaxed mode', () => {
    const text = [
      "Hello, I teach Year 9 English. I'd like you to grade the essay below using our rubric, and please don't rewrite it for the student.", '',
      'Rubric (total 10 points):', '1. Thesis (0–4): a clear claim in the introduction.', '2. Evidence (0–4): two quotations with page numbers.', '3. Conventions (0–2): spelling and grammar.', '',
      'Essay:', '',
      '"In Animal Farm the pigs slowly take over the farm. I think Napoleon is the real villain of the book.', '',
      'First, he trains the dogs in secret. On page 53 the dogs chase Snowball away. This shows he planned it.', '',
      'Second, the commandments keep changing at night. Squealer explains every change. The animals forget what the rules were.', '',
      'In conclusion Napoleon is the villain because he uses fear and lies."', '',
      'Give a score per criterion and the total. Keep the feedback under 150 words.',
    ].join('\n');
    const essay = ['pigs slowly take over', 'trains the dogs in secret', 'commandments keep changing', 'uses fear and lies'];
    for (const budget of ['60%', '50%']) {
      const out = optimize({ text, budget, mode: 'relaxed' }).text;
      const kept = essay.filter((e) => out.includes(e)).length;
      assert.equal(kept, essay.length, `${budget}: ${kept} of ${essay.length} paragraphs of the essay\n${out}`);
    }
  });

  it('never keeps a later clause that only comments on the one before (", but it\'s not a hard requirement", ", so I don\'t have to edit …") without it', () => {
    const text = [
      'We are moving our Rails app off Heroku to AWS and I need a migration plan with a cost estimate.', '',
      'Constraints:', '- Target AWS bill: no more than $900/month.', '- EU regions only (GDPR).', "- I'd prefer Terraform over CloudFormation, but it's not a hard requirement.", '',
      'For the sheet formula: the month should come from cell Summary!E1, where I type the first day of the month, so I don\'t have to edit the formula every month. Sum column D only for that month.',
    ].join('\n');
    for (let percent = 15; percent <= 70; percent += 5) {
      for (const mode of ['strict', 'relaxed'] as const) {
        const out = optimize({ text, budget: `${percent}%`, mode }).text;
        if (/not a hard requirement/i.test(out)) assert.ok(out.includes('Terraform'), `${percent}% ${mode}: the comment without its preference\n${out}`);
        if (/have to edit the formula/i.test(out)) assert.ok(out.includes('Summary!E1'), `${percent}% ${mode}: the purpose without its rule\n${out}`);
      }
    }
  });

  it('keeps the output schema a lead-in asks for ("Return ONLY a JSON object with exactly this shape:") above the rules about its fields', () => {
    const text = [
      'I need you to extract structured data from supplier invoices (already OCR\'d to text).', '',
      'Please return ONLY a JSON object, no prose before or after it, with exactly this shape:', '',
      '```json', '{"supplier_name": "string", "invoice_number": "string", "invoice_date": "YYYY-MM-DD", "due_date": "YYYY-MM-DD | null", "currency": "ISO 4217 code", "grand_total": "number", "po_number": "string | null"}', '```', '',
      'Rules:', '- Dates must always be ISO 8601 (YYYY-MM-DD); EU suppliers write DD/MM/YYYY and US ones MM/DD/YYYY.',
      '- If a field is missing, use `null`. Do not guess and do not use an empty string.',
      '- Numbers must be plain numbers without currency symbols or thousands separators: `1234.50`, not `"£1,234.50"`.',
      '- If the VAT total does not match the sum of the line VAT within 0.02, add a top-level field `"warnings": ["VAT_MISMATCH"]`.',
      '- Do not include any fields that are not in the schema.', '',
      'Here is the invoice text:', '', '<invoice>', '{{ocr_text}}', '</invoice>',
    ].join('\n');
    for (const budget of ['70%', '60%']) {
      const out = optimize({ text, budget, mode: 'strict' }).text;
      assert.ok(out.includes('"supplier_name": "string"') && out.includes('return ONLY a JSON object'), `${budget}: the schema the answer must follow is gone\n${out}`);
    }
  });

  it('never keeps the opening clause of a sentence whose later clause says what to do ("The answer is mostly no" without "so tell them dimmers are not supported")', () => {
    const text = [
      'You answer questions from visitors of our smart bulb shop. Keep answers under 80 words and never promise delivery dates.', '',
      'A lot of people ask whether the bulbs work with their existing dimmer switches. Honestly, the answer is mostly no, and we would rather be upfront about that than deal with returns later, so just tell them that standard wall dimmers are not supported and they should use the app or a remote instead.', '',
      'Visitor: Does it work with my dimmer?',
    ].join('\n');
    for (const budget of ['85%', '75%', '65%'])
      for (const mode of ['strict', 'relaxed'] as const) {
        const out = optimize({ text, budget, mode }).text;
        if (out.includes('mostly no')) assert.ok(out.includes('dimmers are not supported') || out.includes("dimmers aren't supported"), `${budget} ${mode}: the answer without the rule\n${out}`);
      }
  });

  it('keeps a rule and its exception ("Except in test targets, …", "ただし、…許可します") together or not at all', () => {
    const english = [
      'You review Swift code for our iOS app.', '',
      'Never use force unwrapping in production code. Except in test targets, where it is fine.', '',
      'Keep functions under 40 lines. Never log the API key. Use SwiftUI for new screens.',
    ].join('\n');
    const japanese = [
      'あなたは iOS アプリのコードレビュー担当です。', '',
      '- 強制アンラップ（`!`）は禁止です。ただし、テストコードの中では許可します。', '- API キーをログに出力しないでください。', '- 新しい画面は SwiftUI で作ってください。',
    ].join('\n');
    for (const [text, rule, exception] of [[english, 'Never use force unwrapping', 'Except in test targets'], [japanese, '強制アンラップ', 'テストコードの中では許可']] as const) {
      for (let percent = 20; percent <= 90; percent += 10) {
        for (const mode of ['strict', 'relaxed'] as const) {
          const out = optimize({ text, budget: `${percent}%`, mode }).text;
          assert.equal(out.includes(rule), out.includes(exception), `${percent}% ${mode}: the rule and its exception part\n${out}`);
        }
      }
    }
  });

  it('keeps a quoted student paper announced as such ("Voici la copie :") whole, list items and all, and unedited at 100%', () => {
    const text = [
      "Je suis professeure de philosophie et j'aurais besoin d'un coup de main pour corriger une dissertation.", '',
      'Quelques consignes :', '- Donnez une note pour chaque critère, puis la note finale sur 20.', "- N'écrivez pas de commentaire sur l'orthographe, sauf si elle gêne vraiment la compréhension.", '',
      'Voici la copie (élève : Inès B.) :', '',
      "« Introduction. On pense souvent que la liberté, c'est faire ce qu'on veut. Nous verrons que la responsabilité est la condition de la liberté.", '',
      "I. Selon Sartre, « l'homme est condamné à être libre » : il ne peut pas échapper à ses choix.", '',
      'II. Pourtant, Kant montre que l\'autonomie consiste à se donner à soi-même sa loi.', '',
      'Conclusion. On ne peut donc pas être vraiment libre sans être responsable. »', '',
      "Je trouve personnellement qu'elle est un peu courte pour 4 heures. Merci beaucoup pour votre aide !",
    ].join('\n');
    const copy = ['On pense souvent', 'condamné à être libre', 'Kant montre', 'pas être vraiment libre sans'];
    assert.ok(optimize({ text, budget: '100%', mode: 'relaxed' }).text.includes('On ne peut donc pas être vraiment libre sans être responsable. »'), 'the copy is edited at 100%');
    const out = optimize({ text, budget: '60%', mode: 'relaxed' }).text;
    const kept = copy.filter((c) => out.includes(c)).length;
    assert.equal(kept, copy.length, `${kept} of ${copy.length} parts of the copy\n${out}`);
  });

  it('keeps the one document the request names above it ("from the changelog above") with the request, in both modes', () => {
    const text = [
      '<role>', "You're the release-notes writer for the Halcyon banking app.", '</role>', '',
      '<rules>', '<rule id="1">Write at most 5 bullet points per platform.</rule>', '<rule id="2">Never mention internal ticket IDs or code names.</rule>',
      '<rule id="3">Only include changes whose status is "shipped".</rule>', '<rule id="4">Each bullet must be 20 words or fewer.</rule>',
      '<rule id="5">Use the word "account", not "ledger".</rule>', '</rules>', '',
      '<documents>', '<document index="1" title="Changelog export 2024-06-03">',
      'HAL-2240 | both | shipped | Scheduled transfers can now be edited up to 1 day before they run', 'HAL-2247 | android | shipped | Dark mode for statements screen',
      'HAL-2251 | both | reverted | New onboarding carousel', 'HAL-2260 | both | shipped | Zelle limit shown on send screen ($2,500/day)',
      '</document>', '<document index="2" title="Style notes">', 'Lead with the change that affects the most people. Avoid exclamation marks.', '</document>', '</documents>', '',
      '<question>', 'Could you write the release notes for version 5.14.0 from the changelog above?', '</question>',
    ].join('\n');
    for (const mode of ['strict', 'relaxed'] as const) {
      const out = optimize({ text, budget: '55%', mode }).text;
      const lines = ['HAL-2240', 'HAL-2247', 'HAL-2251', 'HAL-2260'].filter((l) => out.includes(l)).length;
      assert.equal(lines, 4, `${mode}: ${lines} of 4 changelog lines\n${out}`);
    }
  });

  it('never keeps "I\'ll give you some labelled examples first and then the new ticket." by itself', () => {
    const text = [
      "Hi! I'm setting up auto-triage for our support inbox at Lockbox (parcel-locker rentals in Belgium), and I'd love your help classifying tickets. I'll give you some labelled examples first and then the new ticket. Thanks a lot in advance!", '',
      'The labels are:', '- BILLING — charges, refunds, invoices', '- LOCKER_FAULT — a door won\'t open, a code is rejected', '- DELIVERY — a parcel is missing or in the wrong locker', '- OTHER — anything else', '',
      'A couple of rules:', '- Pick exactly one label.', '- If the ticket names a locker ID (like BRU-0077), put it in "locker_id"; otherwise use null.', '- Reply with JSON only, no explanation.', '',
      'Examples:', '',
      'Ticket: "I was charged twice for May, €9,95 each. Can you refund one?"', 'Answer: {"label": "BILLING", "locker_id": null}', '',
      'Ticket: "Locker BRU-0077 says my code 448120 is invalid."', 'Answer: {"label": "LOCKER_FAULT", "locker_id": "BRU-0077"}', '',
      'Now the new ticket:', '',
      'Ticket: "The door of AMS-0142 won\'t open and the app charged me €4.50 for an extra day."', 'Answer:',
    ].join('\n');
    for (let percent = 20; percent <= 80; percent += 5) {
      for (const mode of ['strict', 'relaxed'] as const) {
        const out = optimize({ text, budget: `${percent}%`, mode }).text;
        if (out.includes('labelled examples first')) assert.ok(out.includes('"label": "BILLING"') || out.includes('"label": "LOCKER_FAULT"'), `${percent}% ${mode}: the examples it announces are gone\n${out}`);
      }
    }
  });

  it('keeps what a prompt asks of its quoted draft ("Could you grade it, then rewrite it …?") above the draft\'s short sentences', () => {
    const text = [
      "Hi! I'm applying for a Junior Data Analyst role at Greenway Logistics (job ID GL-2291) and I wrote a cover letter, but I think it's weak.", '',
      'Constraints:', '- Maximum 250 words', '- Mention my SQL and Power BI experience', '- Address it to Ms. Amara Okafor', '',
      "Here's my draft:", '',
      '"Dear Sir or Madam,', '',
      'My name is Lucas Ferreira and I am writing to apply for the job of Junior Data Analyst at your company. I am a passionate team player. I finished my degree in Applied Statistics at the University of Porto in 2023.', '',
      'After that I did an internship at TransNord for six months, where I used SQL and Power BI every day. We reduced empty truck kilometres by 12%. I was very proud about this.', '',
      'I am available to start immediately.', '',
      'Thank you for your time,', 'Lucas Ferreira"', '',
      'Could you first give me a short grade (out of 10) with two or three main weaknesses, and then rewrite it following the constraints above? Keep my facts exactly as they are.',
    ].join('\n');
    for (const budget of ['60%', '50%']) {
      const out = optimize({ text, budget, mode: 'strict' }).text;
      assert.ok(out.includes('Could you first give me a short grade'), `${budget}: what to do with the draft is gone\n${out}`);
      assert.ok(out.includes('Dear Sir or Madam'), `${budget}: the draft is gone\n${out}`);
    }
  });

  it('keeps a sentence that announces the next block ("My draft:", "The tables are these:") only with that block', () => {
    const draft = [
      'Can you rewrite my email to my landlord so it sounds firm but polite? Keep it under 150 words.', '',
      'My draft:', '"Hi Mr. Okafor, the heating in flat 3B has been broken since 12 January. I want it fixed by 2 February. Thanks, Dana"', '',
      "Don't add any legal claims I didn't make.",
    ].join('\n');
    const schema = 'I need the products to restock at our hardware store, per warehouse. We use MySQL 8. The tables are these:\n\n```sql\nCREATE TABLE stock (sku_id INT, warehouse_id INT, qty INT);\n```\n\nOnly products with active = 1.';
    // The draft may lose a sentence or two; what is kept of it stands in its quotation marks.
    for (const [text, announcer, material] of [[draft, 'My draft:', /My draft:\n"(?:Hi|I want)[^"]+"/], [schema, 'The tables are these:', /CREATE TABLE/]] as const)
      for (const mode of ['strict', 'relaxed'] as const)
        for (let share = 20; share <= 100; share += 10) {
          const out = optimize({ text, budget: `${share}%`, mode }).text;
          if (out.includes(announcer)) assert.match(out, material, `${mode} ${share}%: ${out}`);
        }
  });

  it('ranks a rule above the steps of a constrained lead-in ("Bisect (complex only, …):"), which instruct by themselves', () => {
    const text = [
      '## Workflow', '',
      '- Diagnose the failure from the stack trace first.',
      '- Bisect (complex only, when the stack trace and blame are not enough):',
      '  - Run git bisect to find the commit that introduced the regression.',
      '  - Check side effects: shared state, race conditions, timing.',
      '  - Compare the failing and passing runs line by line.',
      '  - Write down each hypothesis you rule out.', '',
      '## Rules', '',
      '- Never dismiss a failure as pre-existing or unrelated; investigate it as if your changes caused it.',
      '- Output ASCII only: no smart quotes or em-dashes.',
    ].join('\n');
    for (let share = 40; share <= 80; share += 10) {
      const out = optimize({ text, budget: `${share}%`, mode: 'strict' }).text;
      assert.ok(out.includes('Never dismiss a failure'), `${share}%: the rule went before the steps\n${out}`);
    }
  });

  it('keeps a lead-in that ends a paragraph ("… Use the APIs to:") only with the list it introduces', () => {
    const text = [
      '## Tool calling', '',
      'Chat models can call tools (APIs, databases and system adapters). Use the tool-calling APIs to:', '',
      '- Register tools with strict input and output typing.', '- Observe and log tool call requests and results.', '',
      '## Structured outputs', '',
      'Never parse free text when a schema is available; always request JSON that matches the pydantic model of the task.',
    ].join('\n');
    assert.equal(optimize({ text, budget: '100%' }).text, text);
    for (let share = 20; share <= 90; share += 10) {
      const out = optimize({ text, budget: `${share}%`, mode: 'strict' }).text;
      if (out.includes('APIs to:')) assert.match(out, /APIs to:\n\n- /, `${share}%: ${out}`);
      assert.ok(!/^ /m.test(out), `${share}%: a line starts with a space: ${out}`);
    }
  });

  it('keeps a lead-in to sub-sections ("ALWAYS follow this process:" before "### Step 1") only with one of them', () => {
    const text = [
      '## Implementation', '',
      'When implementing solutions, **ALWAYS follow this process**:', '',
      '### Step 1: Domain analysis', '', 'You MUST state the domain concepts, aggregate boundaries and business rules involved.', '',
      '### Step 2: Architecture review', '', 'You MUST check the layering: domain code never imports infrastructure code.', '',
      '## Testing', '', 'Name tests MethodName_Condition_ExpectedResult and never share state between tests; run them with dotnet test before every commit.',
    ].join('\n');
    for (let share = 20; share <= 90; share += 10) {
      const out = optimize({ text, budget: `${share}%`, mode: 'strict' }).text;
      const steps = /### Step \d[^\n]*\n\nYou MUST/.test(out);
      assert.equal(out.includes('follow this process'), steps, `${share}%: ${out}`);
    }
  });

  it('keeps a short instruction about "it" or "them" only with the sentence it points back to', () => {
    const text = [
      'Secrets are never committed. Read .env.example to discover the required environment variables.', '',
      'Files that appear most often in the recent git history have the highest churn and likely hidden complexity. Always note them in CONCERNS.md.', '',
      'Never run the migration scripts against production; use the staging database on port 5433 instead.',
    ].join('\n');
    for (let share = 20; share <= 90; share += 10) {
      const out = optimize({ text, budget: `${share}%`, mode: 'strict' }).text;
      if (out.includes('Always note them')) assert.ok(out.includes('Files that appear most often'), `${share}%: ${out}`);
    }
  });

  it('keeps a list item that introduces the code after it ("- Example migration pattern:") only with that code', () => {
    const text = [
      '## Class-File API', '',
      'When detecting bytecode manipulation:',
      '- Suggest migrating from ASM to the standard Class-File API; never add a new ASM dependency.',
      '- Example migration pattern:',
      '```java\nClassModel model = ClassFile.of().parse(classBytes);\nbyte[] out = ClassFile.of().transform(model, transform);\n```', '',
      '## Markdown comments', '', 'Use /// for Markdown documentation comments and never mix them with HTML tags.',
    ].join('\n');
    for (let share = 20; share <= 90; share += 10) {
      const out = optimize({ text, budget: `${share}%`, mode: 'strict' }).text;
      if (out.includes('Example migration pattern:')) assert.match(out, /Example migration pattern:\n```java/, `${share}%: ${out}`);
    }
  });

  it('drops an empty heading ("### Feature B") with the section it stands in', () => {
    const text = [
      '# Reviewer', '', 'Never approve a pull request without tests; always run npm test and npm run lint before you review.', '',
      '## Feature examples', '', '### Feature A', '', 'See docs/feature-a.md and docs/feature-a-sequence.puml for the flow.', '',
      '### Feature B', '', '### Feature C', '',
      '## Output', '', 'Reply with a markdown report: summary, blocking issues, suggestions, each as a bulleted list.',
    ].join('\n');
    for (let share = 30; share <= 90; share += 10) {
      const out = optimize({ text, budget: `${share}%`, mode: 'strict' }).text;
      if (!out.includes('Feature A')) assert.ok(!out.includes('### Feature B'), `${share}%: ${out}`);
    }
  });

  it('keeps a rule without the talk about the prompt written into its list item', () => {
    const text = [
      'Rules:', '',
      '- Never promise a refund above $250 without a supervisor. Honestly I am not sure we still need this one.',
      '- Answer in the customer\'s language and keep replies under 150 words.',
      '- If the customer mentions error E-4021, tell them to update the client to version 3.14.2.',
    ].join('\n');
    const out = optimize({ text, budget: '85%', mode: 'strict' }).text;
    assert.ok(out.includes('Never promise a refund above $250 without a supervisor.'), out);
    assert.ok(!out.includes('not sure'), out);
  });

  it('keeps what the prompt asks before the details around it', () => {
    const text = [
      "Could you translate these UI strings for our fitness app Stridewell from English into German? I'd do it myself but my German is rusty.",
      '',
      'Glossary: workout → Training (never "Workout"), streak → Serie, Stridewell Pro stays as it is.',
      'Use the informal "du", keep placeholders like {count} exactly as they are, and keep each string under 40 characters.',
      'Return a JSON object with the same keys.',
    ].join('\n');
    for (const budget of ['40%', '60%']) {
      const out = optimize({ text, budget, mode: 'strict' }).text;
      assert.ok(out.includes('Could you translate these UI strings for our fitness app Stridewell from English into German?'), `${budget}: ${out}`);
    }
  });

  it('leaves no empty ">" lines where paragraphs of a quoted email went', () => {
    const text = 'Email:\n\n> Subject: Postmortem INC-7731\n>\n> Cause: a config push set the pool to 5 instead of 50. It took an hour to find.\n>\n> Follow-ups:\n> - Add validation – Tomasz.\n> - Alert on pool size – Ana.\n\nExtract the action items as JSON.';
    for (let share = 20; share <= 100; share += 10) {
      const out = optimize({ text, budget: `${share}%`, mode: 'strict' }).text;
      assert.ok(!/^>\s*$\n^>\s*$/m.test(out) && !/(?:^|\n)>\s*(?:\n\n|$)/.test(out) && !/^Email:\n\n>\s*\n/.test(out), `${share}%: ${JSON.stringify(out)}`);
    }
  });

  it('finds the Chinese sentence a Chinese question asks about', () => {
    const text = '超级碗50是一场美式橄榄球比赛。丹佛野马队以24比10击败了卡罗莱纳黑豹队。比赛于2016年2月7日在加利福尼亚州圣克拉拉的李维斯体育场举行。这是第50届超级碗，联盟强调了金色周年纪念。';
    const out = optimize({ text, budget: '50%', mode: 'strict', task: '比赛在哪个体育场举行？' }).text;
    assert.ok(out.includes('李维斯体育场'), out);
  });

  it('drops protected blocks whole in strict mode, and says so', () => {
    const text = 'Intro sentence here.\n\n```\nconst veryLongIdentifierName = computeSomething(1, 2, 3);\n```';
    const doc = parse(text);
    select.run(doc, context(3, 'strict'));
    const out = render(doc);
    assert.ok(!out.includes('```'), out);
    assert.equal(doc.notes.protectedDropped, true);
  });

  it('reads a ```markdown template larger than a strict budget as the rules it holds, inside its fence lines', () => {
    const rules = ['Never use language features beyond the detected version.', 'Always match the naming conventions of the files around the change.', 'Prefer the newer file when two files disagree on a pattern.', 'Keep every test in the folder the existing tests use.', 'Only add a dependency that the project already lists.', 'Never log secrets, tokens or personal data.', 'Always run the linter before you say a change is done.', 'Never edit generated files by hand.'];
    const template = ['```markdown', '# Copilot Instructions', '', '## Rules', '', ...rules.map((rule) => `- ${rule}`), '```'].join('\n');
    const text = `Generate a copilot-instructions.md file for this repository from the template below.\n\n${template}\n\nScan the codebase before you write anything.`;
    const strict = optimize({ text, budget: '50%', mode: 'strict' });
    assert.ok(strict.optimizedTokens <= strict.budgetTokens, strict.text);
    // Before, the template went whole (it alone is over the budget) and half the budget stayed empty.
    assert.ok(strict.optimizedTokens > strict.budgetTokens * 0.7, strict.text);
    const kept = rules.filter((rule) => strict.text.includes(rule));
    assert.ok(kept.length >= 2 && kept.length < rules.length, strict.text);
    assert.ok(strict.text.includes('```markdown\n') && /\n```(?:\n|$)/.test(strict.text), `fence lines kept as a pair:\n${strict.text}`);
    // A template that fits the budget is one block, kept or dropped whole; relaxed mode keeps it whole at any budget.
    const templateTokens = optimize({ text: template, budget: '100%' }).optimizedTokens;
    for (let percent = 50; percent <= 95; percent += 5) {
      const r = optimize({ text, budget: `${percent}%`, mode: 'strict' });
      if (r.budgetTokens >= templateTokens) assert.ok(r.text.includes(template) || !r.text.includes('```'), `${percent}%: a template that fits was cut\n${r.text}`);
    }
    assert.ok(optimize({ text, budget: '50%', mode: 'relaxed' }).text.includes(template));
  });

  it('starts from a block larger than the room greedy left when that keeps more, never trading most of what greedy kept for it', () => {
    const rules = ['Never push directly to main.', 'Run the linter before every commit.', 'Keep pull requests under 400 lines.', 'Write tests for every bug fix.', 'Use the logger, never print statements.', 'Ask before adding a dependency.'];
    const config = ['```yaml', ...Array.from({ length: 9 }, (_, i) => `service_${i + 1}:\n  image: registry.example.com/team/service-${i + 1}:1.${i}.0\n  replicas: ${(i % 3) + 1}`), '```'].join('\n');
    const text = `## Compose configuration\n\n${config}\n\n## Rules\n\n${rules.map((rule) => `- ${rule}`).join('\n')}`;
    // Before, the rules went first and the block no longer fitted: 52 of 288 tokens.
    const nearly = optimize({ text, budget: '95%', mode: 'strict' });
    assert.ok(nearly.text.includes(config) && nearly.optimizedTokens >= nearly.budgetTokens * 0.8, `${nearly.optimizedTokens}/${nearly.budgetTokens}\n${nearly.text}`);
    assert.ok(rules.filter((rule) => nearly.text.includes(rule)).length >= 3, nearly.text);
    // Where the block would leave room for one rule of six, the rules stay.
    const tighter = optimize({ text, budget: '85%', mode: 'strict' });
    assert.equal(rules.filter((rule) => tighter.text.includes(rule)).length, rules.length, tighter.text);
  });

  it("drops a rule's reason before the rule: a trailing \"because …\", \"— …\" or \"; …\" that only remarks", () => {
    const text = [
      'You review pull requests for the billing service.', '',
      '- Do not approve a change to the invoice schema without a migration, because old invoices would fail to load.',
      '- Reject new dependencies on moment.js — it has been replaced by date-fns everywhere else.',
      '- Ask for a test for every bug fix; untested fixes have come back twice this quarter.',
      '- Never merge on a Friday, because the on-call team is thinner over the weekend.',
      '- Never modify an existing migration file once it is merged — always create a new migration.',
      '- Keep the pricing tables as they are — in that case ask the finance team before you change them.',
    ].join('\n');
    // Before, whole rules went at 55%: the role and two rules of six.
    const out = optimize({ text, budget: '55%', mode: 'strict' }).text;
    for (const rule of ['Reject new dependencies on moment.js.', 'Ask for a test for every bug fix.', 'Never merge on a Friday.']) assert.ok(out.includes(rule), `${rule}\n${out}`);
    assert.ok(!out.includes('because the on-call team'), out);
    for (let percent = 20; percent <= 100; percent += 5) {
      const at = optimize({ text, budget: `${percent}%`, mode: 'strict' }).text;
      // A dash that opens an instruction or the rule's other branch is part of the rule.
      if (at.includes('Never modify an existing migration')) assert.ok(at.includes('— always create a new migration.'), `${percent}%\n${at}`);
      if (at.includes('Keep the pricing tables')) assert.ok(at.includes('in that case ask the finance team'), `${percent}%\n${at}`);
    }
    assert.ok(optimize({ text, budget: '100%', mode: 'strict' }).text.includes('— it has been replaced by date-fns everywhere else.'));
  });

  it('keeps a sentence that opens on "in that case" in any language ("Nesse caso …", "Dans ce cas …") only with the case before it', () => {
    const pt = [
      'Extraia os dados do contrato de locação abaixo e devolva só o JSON.',
      'O campo `data_inicio` usa o formato AAAA-MM-DD.',
      'Observação sobre a multa: normalmente o contrato diz algo como "multa equivalente a três aluguéis, proporcional ao tempo restante".',
      'Nesse caso o campo `multa_rescisoria_alugueis` deve ser o número de aluguéis (3), sem calcular a proporção.',
      'O campo `indice_reajuste` só pode ser "IGP-M", "IPCA" ou "outro".',
    ].join(' ');
    // Before, "Nesse caso … (3) …" was kept alone at 50%: the count read as a fixed value.
    keptOnlyWith(pt, 'Nesse caso', 'Observação sobre a multa', 'a case without the case it names');
    const fr = "Répondez en français. Si le client signale une fuite d'eau en cours, demandez-lui de couper l'arrivée d'eau. Dans ce cas, donnez aussi le numéro d'assistance 09 70 11 11 11. Citez toujours l'article des conditions générales.";
    keptOnlyWith(fr, 'Dans ce cas', "Si le client signale une fuite", 'a case without the case it names');
  });

  it('keeps a paragraph that names the list before it ("If you cannot explain these points, STOP …") only with that list', () => {
    const text = [
      'You are a .NET architect who reviews designs for our payments platform.', '',
      '## Thinking process', '',
      '1. **Show your analysis**: name the aggregates, the domain events and the services involved.',
      '2. **Validate the plan**: say which tests will be needed and how they will be named.', '',
      '**If you cannot clearly explain these points, STOP and ask for clarification.**', '',
      '## Testing', '',
      'Name tests MethodName_Condition_ExpectedResult and never share state between tests.',
      'Run dotnet test before every commit; a red build is never merged.',
    ].join('\n');
    // Before, the warning was kept at 25% with no point before it.
    keptOnlyWith(text, 'these points', 'which tests will be needed', 'a reference to a list that went', 15);
  });

  it('never keeps "Use these sections …" after a list that went, nor pulls in one item of the list for it', () => {
    const text = [
      'You map an existing codebase into seven documents under docs/codebase/.', '',
      '## Scan output', '',
      'The scan.py script prints the following sections:', '',
      '- **CODE METRICS**: total files, lines of code by language, largest files',
      '- **CI/CD PIPELINES**: GitHub Actions, GitLab CI, Jenkins, CircleCI',
      '- **CONTAINERS**: Docker, Docker Compose, Kubernetes, Vagrant configs',
      '- **SECURITY**: Snyk, Dependabot, SECURITY.md, SBOM', '',
      'Use these sections during Phase 2 to inform investigation questions.', '',
      '## Rules', '',
      'Never document patterns from dist/, build/ or generated/ folders.',
      'Use [TODO] for anything that cannot be determined from code, and [ASK USER] where the answer needs team intent.',
      'Every claim cites at least one file path as evidence.',
    ].join('\n');
    // Before, at 30% "Use these sections …" stayed under "## Scan output" with no section named.
    keptOnlyWith(text, 'Use these sections', '**SECURITY**', 'a reference to a list that went');
    for (const percent of [40, 50, 60]) {
      const out = optimize({ text, budget: `${percent}%`, mode: 'strict' }).text;
      const items = ['CODE METRICS', 'CI/CD PIPELINES', 'CONTAINERS', 'SECURITY'].filter((item) => out.includes(`**${item}**`));
      assert.ok(!out.includes('Use these sections') || items.length === 4, `${percent}%: "these sections" over ${items.length} of 4 items:\n${out}`);
    }
  });

  it('never takes what follows a condition for an aside ("**If you find a gap mid-implementation** — pause and ask …")', () => {
    const text = [
      'You implement Apex triggers for our Salesforce org.', '',
      '- **If you discover a gap or ambiguity mid-implementation** — pause and ask rather than making your own decision',
      '- **When a spec names no sharing model** — it is usually an oversight on their side, to be fair',
      '- Never hardcode record IDs; they differ between orgs.',
      '- Put every SOQL query in a selector class.',
    ].join('\n');
    // Before, "- **If you discover a gap or ambiguity mid-implementation**" was kept alone: a condition without its rule.
    keptOnlyWith(text, 'If you discover a gap', '— pause and ask rather than making your own decision', 'a condition without its rule');
    keptOnlyWith(text, 'When a spec names', 'usually an oversight on their side', 'a condition without what follows it');
  });

  it('never cuts a sentence at a dash that opens or closes an aside inside it ("…, and — when they are interested — get them to …")', () => {
    const text = [
      'Answer questions from visitors, help them pick a plan, and — when they are interested — get them to book a demo.',
      'Reply in English.', 'Keep answers short.', 'Use the FAQ as your only source.',
    ].join(' ');
    // Before, "Answer questions from visitors, help them pick a plan, and." was kept at 45%.
    for (let percent = 20; percent <= 95; percent += 5) {
      const out = optimize({ text, budget: `${percent}%`, mode: 'strict' }).text;
      if (out.includes('help them pick a plan')) assert.ok(out.includes('get them to book a demo'), `${percent}%\n${out}`);
    }
  });

  it('numbers the kept items of a numbered list one after another ("1. 2. 4." reads "1. 2. 3."), unless the prompt names items by number', () => {
    const rules = ['Rules for every reply:', '', '1. Greet the customer by first name.', '2. Think about the general tone a little and maybe keep it friendly where it feels right.',
      '3. Never promise a refund above $250 without a supervisor.', '4. Consider some general improvements to the wording here and there.', '5. Quote the order number exactly as written.'];
    for (let percent = 30; percent <= 95; percent += 5) {
      const out = optimize({ text: rules.join('\n'), budget: `${percent}%`, mode: 'strict' }).text;
      const numbers = out.split('\n').filter((l) => /^\d\. /.test(l)).map((l) => Number(l[0]));
      assert.deepEqual(numbers, numbers.map((_, i) => i + 1), `${percent}%: ${numbers.join(', ')}\n${out}`);
    }
    // "Rule 3" names an item: its number stays what it was written.
    const named = [...rules, '', 'Rule 3 overrides every other rule.'].join('\n');
    for (let percent = 30; percent <= 95; percent += 5) {
      const out = optimize({ text: named, budget: `${percent}%`, mode: 'strict' }).text;
      for (const line of out.split('\n').filter((l) => /^\d\. /.test(l))) assert.ok(named.includes(line), `${percent}%: "${line}" is not written so\n${out}`);
    }
  });

  it('ends a list that runs one sentence over its items on a period when its last items went', () => {
    const items = ['- höflich und professionell klingt, aber nicht unterwürfig,', '- den neuen Liefertermin (28. März 2024) klar nennt,',
      '- als Entschädigung einen Rabatt von 8 % auf die Gesamtrechnung anbietet, aber nur, wenn Herr Brandt die Bestellung nicht storniert,',
      '- keine Schuld auf den Zulieferer schiebt (den Namen "Kovac Metall" bitte auf keinen Fall erwähnen),', '- höchstens 150 Wörter lang ist,',
      '- mit "Mit freundlichen Grüßen, Sabine Krüger" endet.'];
    const text = ['Bitte schreib die E-Mail an Herrn Brandt von Brandt & Söhne so um, dass sie:', ...items, '',
      'Verwende die Sie-Form, nicht die Du-Form. Keine Emojis und keine Ausrufezeichen. Gib mir nur die fertige E-Mail zurück.'].join('\n');
    let cut = 0;
    for (let percent = 20; percent <= 95; percent += 5) {
      const out = optimize({ text, budget: `${percent}%`, mode: 'strict' }).text;
      const kept = out.split('\n').filter((line) => line.startsWith('- '));
      if (kept.length === 0 || out.includes('Sabine Krüger" endet.')) continue;
      cut++;
      // Before, "- höchstens 150 Wörter lang ist," ended the list, its sentence left hanging.
      assert.ok(kept[kept.length - 1]!.endsWith('.'), `${percent}%: ${kept[kept.length - 1]}\n${out}`);
    }
    assert.ok(cut > 0, 'no budget cut the list before its last item');
  });

  it('numbers an item that leads its own nested list with the rest of its list', () => {
    const text = ['Rules:', '', '1. Always verify the customer by account number and ZIP code.', '2. Think about the tone a little and maybe keep it friendly where it feels right.',
      '3. Error codes shown in the app:', '   - E1: no signal', '   - E2: weak signal', '4. Consider some general improvements to the wording here and there.', '5. Never issue a credit above $20 without a supervisor.'].join('\n');
    for (let percent = 40; percent <= 95; percent += 5) {
      const out = optimize({ text, budget: `${percent}%`, mode: 'strict' }).text;
      const numbers = out.split('\n').filter((l) => /^\d\. /.test(l)).map((l) => Number(l[0]));
      // Before, the lead-in kept its "3." and the items after it counted on from it: "1. 3. 4.".
      assert.deepEqual(numbers, numbers.map((_, i) => i + 1), `${percent}%: ${numbers.join(', ')}\n${out}`);
    }
  });

  it('keeps the number each item of a ranking was written with: priority 5 never becomes priority 1', () => {
    const text = ['Cleanup priorities, in order:', '', '1. Look around the codebase a bit.', '2. Think about what could be nicer.', '3. Consider some general improvements.', '4. Maybe tidy things up where it feels right.', '5. Never delete `migrations/` or `.env.example`, even when they look unused.', '', 'Report what you removed.'].join('\n');
    const out = optimize({ text, budget: '50%', mode: 'strict' }).text;
    // Before, the one kept item was numbered "1." again.
    assert.ok(out.includes('5. Never delete `migrations/`'), out);
    for (let percent = 20; percent <= 95; percent += 5) {
      const at = optimize({ text, budget: `${percent}%`, mode: 'strict' }).text;
      for (const line of at.split('\n').filter((l) => /^\d\. /.test(l))) assert.ok(text.includes(line), `${percent}%: "${line}" is not written so\n${at}`);
    }
  });

  it('reads "I need a query that shows …" as the request, not "I need a hand with …"', () => {
    const en = [
      'Hi! Sorry for the long message.', '',
      'We run Copperleaf, a bike-sharing service in three cities. I need a query that shows, for each station, the average number of bikes available per hour of the day over the last 28 days.', '',
      'Rules:',
      '- Use PostgreSQL 15 syntax only; no extensions.',
      '- Never count a station that was offline for more than 12 hours in the period.',
      '- Round averages to one decimal place.',
      '- Name the columns station_id, hour_of_day and avg_bikes.',
      '- Do not use window functions; our BI tool chokes on them.',
      '- Order by station_id, then hour_of_day.',
      "- Only stations with status = 'active' count.",
    ].join('\n');
    // Before, at 25–50% the rules were kept and the query they are rules for was not.
    for (const percent of [25, 30, 40, 50]) {
      const out = optimize({ text: en, budget: `${percent}%`, mode: 'strict' }).text;
      assert.ok(out.includes('I need a query that shows'), `${percent}%:\n${out}`);
    }
    const vague = parse('Hi! I need a hand with an email to a client. Here is my draft:\n\n"Dear Ms Okoro, the launch moves to 8 April."\n\nKeep it under 120 words.');
    assert.ok(vague.blocks.every((b) => b.sentences.every((s) => !s.request || !sentenceText(s).startsWith('I need a hand'))));
    // Nor a retrieved document's "I need a replacement part …": the writer's words only.
    const quoted = parse('<document index="1">\nI need a replacement part for my dishwasher, model AQ-520.\n</document>\n\n<document index="2">\nThe AQ-520 door seal is part 44-118 and ships in 3 days.\n</document>\n\nAnswer the customer from the documents, in two sentences.');
    assert.ok(quoted.blocks.every((b) => b.sentences.every((s) => !s.request || !sentenceText(s).includes('replacement part'))));
  });

  it('reads "A ideia é que você leia …" ("The idea is that you read …") as an instruction and the request', () => {
    const pt = [
      'Oi, tudo bem? Espero que sim!', '',
      'Estamos montando um cadastro interno na Locadora Ventania para registrar os contratos de aluguel de carros que chegam por e-mail. A ideia é que você leia o contrato e devolva os dados principais num JSON com os campos locatario, placa, inicio, fim e valor_diaria.', '',
      'Regras:',
      '- Datas no formato AAAA-MM-DD.',
      '- Valores em reais, com ponto decimal e sem símbolo.',
      '- Se um campo não aparecer no contrato, use null.',
      '- Não acrescente campos que não estão na lista.',
      '- Placas sempre em maiúsculas, sem hífen.',
      '- Responda apenas com o JSON.',
    ].join('\n');
    // Before, at 25–50% the rules were kept without the task they are rules for.
    for (const percent of [25, 30, 40, 50]) {
      const out = optimize({ text: pt, budget: `${percent}%`, mode: 'strict' }).text;
      assert.ok(out.includes('A ideia é que você leia o contrato'), `${percent}%:\n${out}`);
    }
    assert.ok(isInstruction('The idea is that you read the contract and return the main data as JSON.'));
    assert.ok(!isInstruction('The idea is that prices rise when supply falls.'));
  });

  it('reads the sentence that says what the writer needs ("Lo que necesito es …") as the request: strict mode ranks it first', () => {
    const es = [
      '¡Hola! A ver si me echas una mano con esto.', '',
      'Llevo las compras de Panadería Ortiz e Hijos y quiero saber qué harinas pedir. Usamos PostgreSQL 15. Las tablas:', '',
      '```sql\nCREATE TABLE harinas (id INT PRIMARY KEY, nombre TEXT, minimo_kg INT);\nCREATE TABLE consumos (harina_id INT, kg NUMERIC, dia DATE);\nCREATE TABLE existencias (harina_id INT, kg NUMERIC);\n```', '',
      'Lo que necesito es una consulta que devuelva, por harina, los kilos en existencia, el consumo de los últimos 14 días y los días que quedan al ritmo actual.', '',
      'Condiciones:', '- Solo harinas con minimo_kg mayor que 0.', '- Ordenado de menos a más días.', '- Sin funciones propias, una sola consulta.', '',
      '¡Gracias! Explícamela brevemente.',
    ].join('\n');
    // Before, at 40% and 50% the conditions were kept without the query they qualify.
    for (const percent of [40, 50, 60]) {
      const out = optimize({ text: es, budget: `${percent}%`, mode: 'strict' }).text;
      assert.ok(out.includes('Lo que necesito es una consulta'), `${percent}%:\n${out}`);
    }
  });

  it('keeps what stands under "1. Run the export script:" only with the command the colon shows', () => {
    const text = [
      'You turn a product catalogue into a clean CSV for the shop import.', '',
      '## Steps', '',
      '1. Run the export script from the repository root:',
      '   ```bash',
      '   node tools/export-catalogue.mjs --format csv --out build/catalogue.csv --locale en-GB --include-archived=false',
      '   ```',
      '   Runs on Node 18 or later, on every platform.', '',
      '2. Check that every row has a SKU, a price in pence and a category from the allowed list.',
      '3. Never change prices; report rows with a missing price instead.',
      '4. Upload build/catalogue.csv to the import bucket and post the row count in #catalogue.',
    ].join('\n');
    // Before, at 20% "1. Run the export script …:" stood over "Runs on Node 18 or later …" without the command.
    keptOnlyWith(text, 'Runs on Node 18', 'node tools/export-catalogue.mjs', 'a remark on a command that went');
  });

  it('keeps a priority list from its first item where only part of it fits, never priority 5 alone', () => {
    const text = [
      '# Repository Gardener', '',
      'Tidy any repository by paying down its maintenance debt.', '',
      '## Cleanup Priority', '',
      '1. Find and delete dead code',
      '2. Flatten needless abstractions',
      '3. Merge duplicated helpers',
      '4. Shorten tangled conditionals',
      '5. Drop unused packages', '',
      '## Reporting', '',
      'Summarise every change in the pull request description, one bullet per file.',
    ].join('\n');
    // Before, at 35% "3. Merge duplicated helpers" was the one item kept under "## Cleanup Priority".
    for (let percent = 30; percent <= 80; percent += 5) {
      const out = optimize({ text, budget: `${percent}%`, mode: 'strict' }).text;
      const kept = [1, 2, 3, 4, 5].filter((n) => out.includes(`\n${n}. `));
      assert.ok(kept.every((n, i) => n === i + 1), `${percent}%: priorities ${kept.join(', ')} kept\n${out}`);
    }
  });

  it('keeps a sentence that points back with a bare "these" ("… can\'t be done well with these, tell me") only with the sentence before it', () => {
    const text = [
      'You are helping me build Tallyho, a small web app for community sports leagues.', '',
      'Please use only these libraries for the jobs they cover: Drizzle ORM for database access, Zod for validation, Tailwind CSS for styling and date-fns for dates. If you think something genuinely can\'t be done well with these, tell me before adding anything new. Never add a package to save a few lines of code.', '',
      'A win is worth 3 points, a draw 1 and a loss 0; a forfeit counts as a 3–0 win for the opponent. All of this lives in `lib/standings.ts`.',
    ].join('\n');
    // Before, at 50% "… with these, tell me …" stood after "The app is a Next.js 14 project …" (found by a reader).
    for (let percent = 20; percent <= 90; percent += 10) {
      const out = optimize({ text, budget: `${percent}%`, mode: 'strict' }).text;
      if (out.includes('well with these')) assert.ok(out.includes('date-fns for dates. If you think'), `${percent}%: ${out}`);
    }
  });

  it('drops a comment or heading inside a tag pair or template fence with the pair: none frames what follows the closing line', () => {
    const template = ['```markdown', '## Resources', '', '<!-- Repeat this block for each resource -->', '', ...Array.from({ length: 10 }, (_, i) => `- Resource ${i + 1}: name, kind, purpose and the modules it depends on, written out in full.`), '```'].join('\n');
    const text = `Write the implementation plan to .bicep-planning-files/INFRA.{goal}.md and never design deployment pipelines.\n\n${template}\n\nOnly create the plan.`;
    const tagged = '<workflow>\n\n## Step 3: Plan generation\n\n- List every file you will change, with the reason for each one, before you write any code at all.\n- Ask for approval of the list and wait for it.\n\n</workflow>\n\nNever write code during planning. Answer in English.';
    for (let percent = 10; percent <= 60; percent += 5) {
      // Before, "## Resources" (kept by the last sentence after the fence) and the comment stayed alone.
      const out = optimize({ text, budget: `${percent}%`, mode: 'strict' }).text;
      if (!out.includes('- Resource')) assert.ok(!out.includes('## Resources') && !out.includes('<!--'), `${percent}%\n${out}`);
      const at = optimize({ text: tagged, budget: `${percent}%`, mode: 'strict' }).text;
      if (!at.includes('- List every file') && !at.includes('- Ask for approval')) assert.ok(!at.includes('## Step 3'), `${percent}%\n${at}`);
    }
  });

  it('keeps a sentence in brackets ("(Refer to … for details.)") only with the sentence it remarks on', () => {
    const text = ['You are an expert C# developer.', 'You know the released .NET and C# versions, up to .NET 10 and C# 14. (Refer to https://learn.microsoft.com/en-us/dotnet/core/whats-new and https://learn.microsoft.com/en-us/dotnet/csharp/whats-new for details.)', 'Never mock code that is part of the solution under test.', 'Always run dotnet test before you say a change is done.', 'Use file-scoped namespaces.'].join(' ');
    // Before, at 80% and 90% the links stayed and the sentence about versions went.
    keptOnlyWith(text, '(Refer to', 'You know the released .NET', 'a remark on a sentence that went');
  });

  it('never makes a sentence lean on talk about the prompt ("I\'m not sure how much of this you need. This repo holds …")', () => {
    const text = [
      '# CLAUDE.md', '',
      "Hi Claude, just some notes to help you find your way around. I'm not sure how much of this you actually need but better too much than too little I suppose.", '',
      'This repo holds the nightly data pipeline for Orchard Analytics: Airflow DAGs in `dags/`, dbt models in `transform/`, and a small Python package `orchard_etl/`.', '',
      '**Environment.** We use Python 3.11 and uv. Run everything through uv. Don\'t use pip directly and don\'t create a separate virtualenv.', '',
      '**Secrets.** Credentials come from environment variables. Don\'t hard-code credentials or paste them into tests.',
    ].join('\n');
    // Before, "This repo …" leaned on the hedge before it, which is never kept: the subject went at every budget.
    const out = optimize({ text, budget: '70%', mode: 'strict' }).text;
    assert.ok(out.includes('Orchard Analytics') && !out.includes("I'm not sure"), out);
  });

  it('drops the remark that closes a rule\'s list item before the rule ("This caused a lot of complaints …"), never a step that opens with its verb', () => {
    const text = ['You write the launch emails for our coffee shop.', '',
      '- Each email has a subject of at most 50 characters and a body of at most 120 words.',
      '- In the last-call email, make clear that the coupon is valid until 23:59 on 10 September and does not combine with free shipping. This caused a lot of complaints in the last campaign, so it is worth being explicit.',
      '- Never invent awards or scores for the coffee. The blend has not been rated by any contest yet.',
      '- Write "you", never "Sir" or "Madam". Our customers are regulars and like the informal tone.',
      '- If a claim is ambiguous, generate two readings. Check each against the facts. Eliminate until one remains.',
      '- Formal tone, but not stiff. It should sound like our founder, just better organised.',
    ].join('\n');
    // Before, the coupon rule went whole at 75% while the remarks after the other rules stayed.
    const out = optimize({ text, budget: '75%', mode: 'strict' }).text;
    assert.ok(out.includes('valid until 23:59 on 10 September') && !out.includes('complaints'), out);
    for (let percent = 30; percent <= 100; percent += 5) {
      const at = optimize({ text, budget: `${percent}%`, mode: 'strict' }).text;
      if (at.includes('generate two readings')) assert.ok(at.includes('Eliminate until one remains.'), `${percent}%\n${at}`);
      // What something should be is a requirement, not a remark.
      if (at.includes('Formal tone')) assert.ok(at.includes('It should sound like our founder'), `${percent}%\n${at}`);
      if (at.includes('complaints')) assert.ok(at.includes('valid until 23:59'), `${percent}%\n${at}`);
    }
  });

  it('keeps list items that end in semicolons, the parts of one sentence, all or none', () => {
    const text = [
      'Release QA for an MCP server.', '',
      'Build the candidate and start the documented entry point with test-safe configuration. Capture:', '',
      '- the exact command;', '- commit SHA;', '- environment variable names, with values redacted;', '- stdout, stderr, and exit status;', '- the transport the client used.', '',
      'Never publish a release that fails to start.', 'Report PASS or FAIL with the evidence.', 'Keep the report under 300 words.',
    ].join('\n');
    const parts = ['- the exact command;', '- commit SHA;', '- environment variable names, with values redacted;', '- stdout, stderr, and exit status;', '- the transport the client used.'];
    // Before, "Capture: - commit SHA;" could stand alone.
    for (let percent = 20; percent <= 95; percent += 5) {
      const out = optimize({ text, budget: `${percent}%`, mode: 'strict' }).text;
      const kept = parts.filter((part) => out.includes(part)).length;
      assert.ok(kept === 0 || kept === parts.length, `${percent}%: ${kept} of ${parts.length}\n${out}`);
    }
  });

  it('drops the fence lines of a ```markdown template with the last of its content', () => {
    const template = ['```markdown', ...Array.from({ length: 8 }, (_, i) => `- Rule ${i + 1}: keep the module boundaries of layer ${i + 1} as they are.`), '```'].join('\n');
    const text = `Never delete a migration file, whatever the task says.\n\n${template}`;
    for (const budget of ['15%', '25%', '40%']) {
      const out = optimize({ text, budget, mode: 'strict' }).text;
      const fences = out.match(/^```/gm)?.length ?? 0;
      assert.ok(fences === 0 || (fences === 2 && /- Rule \d/.test(out)), `${budget}: both fence lines with content, or neither\n${out}`);
    }
  });

  it('keeps a template expression that spans lines (${LEVEL == "Minimal" ? `…` : ""}) whole or not at all, in a template read as Markdown', () => {
    const expression = (level: string) => [`\${LEVEL == "${level}" ? `, ...Array.from({ length: 4 }, (_, i) => `${i ? '' : '`'}- ${level} rule ${i + 1}: document parameters the way the existing code of layer ${i + 1} does.`), '` : ""}'].join('\n');
    const template = ['```markdown', '## Documentation', '', expression('Minimal'), '', expression('Standard'), '', expression('Full'), '```'].join('\n');
    const text = `Never invent a documentation style.\n\n${template}`;
    for (const budget of ['30%', '45%', '60%', '75%']) {
      const out = optimize({ text, budget, mode: 'strict' }).text;
      // Before, "${LEVEL == "Minimal" ? " was kept without the ": ""}" that closes it.
      assert.equal(out.match(/\$\{/g)?.length ?? 0, out.match(/: ""\}/g)?.length ?? 0, `${budget}\n${out}`);
      if (budget !== '30%') assert.ok(/rule 1/.test(out), `${budget}: the template went whole\n${out}`);
    }
  });

  it('reads "act like" and "I want you act as" as the role: relaxed mode keeps it whatever the budget', () => {
    const roles: [text: string, role: string][] = [
      ['I want you act as a language detector. I will type a sentence in any language and you will tell me which language it is. Do not write any explanations or other words, just reply with the name of the language. I will start when you are ready.', 'Act as a language detector.'],
      ['I want you to act like a stand-up comedian from Dublin. I will give you topics and you will write short jokes about them in your voice. Keep each joke under 50 words and never punch down. I will send the topics next.', 'Act like a stand-up comedian from Dublin.'],
    ];
    for (const [text, role] of roles)
      for (const budget of ['20%', '10%']) {
        // Before, neither was a role: a rule stood in its place ("Keep each joke under 50 words …").
        const out = optimize({ text, budget, mode: 'relaxed' }).text;
        assert.ok(out.startsWith(role), `${budget}: ${out}`);
      }
  });

  it('pins the input a prompt without a role closes on, with the instruction it opens on', () => {
    const text =
      'I want you to translate the sentences I write into formal German. I will write the sentence, and you will translate it with formal address. ' +
      'I do not want you to reply with anything but the translation. When I need to tell you something in English, I will put it in curly brackets like {this}. ' +
      'My first sentence is "Could you send me the invoice by Friday?"';
    const input = 'First sentence: "Could you send me the invoice by Friday?"';
    // Before, at 50% and 40% the input went and the aside about curly brackets stayed as the closing request.
    for (const budget of ['50%', '40%']) assert.ok(optimize({ text, budget, mode: 'strict' }).text.includes(input), budget);
    // The input alone asks the model something else: it comes only with what to do with it.
    keptOnlyWith(text, input, 'Translate the sentences I write into formal German.', 'an input without its instruction', 10);
  });

  it('keeps a retrieved document\'s later sentences only with the one that opens on its header ("[Doc 1] Changelog v3.2.1 …: Fixed …")', () => {
    const text =
      'Hi, quick one. Using only the two changelog entries below, tell me which release of Orbitdesk fixed the crash when a calendar invite had no end time.\n\n' +
      '[Doc 1] Changelog v3.2.1 (2025-02-04): Fixed a crash when opening an invite without an end time. Faster search.\n' +
      '[Doc 2] Changelog v3.2.0 (2025-01-20): New invite templates (weekly, monthly). Known issue: invites without an end time may crash the app.\n\n' +
      'Answer with the release number only, followed by the doc number in brackets, e.g. `v1.0.0 [Doc 3]`. If neither entry says, answer "unknown". Thanks a lot!';
    // Before, "Faster search." stood alone from 15% to 85%, nobody's release note.
    keptOnlyWith(text, 'Faster search.', '[Doc 1] Changelog v3.2.1', 'a document sentence without its header', 15);
    keptOnlyWith(text, 'Known issue:', '[Doc 2] Changelog v3.2.0', 'a document sentence without its header', 15);
  });

  it('fills the room that the join slack of unit costs left in a short prompt, counted exactly', () => {
    const text =
      'I want you to act as a Python REPL. I will type code and you will reply with what the interpreter would print. ' +
      'I want you to only reply with the output inside one code block, and nothing else. Do not write explanations. ' +
      'Do not run any code unless I ask you to. When I need to tell you something in English, I will put it inside ' +
      'curly brackets {like this}. My first command is print(2 + 2)';
    const r = optimize({ text, budget: '50%', mode: 'strict' });
    // Before, the estimate left 11 tokens for a rule of 11.5 and the output used 35 of 46 tokens.
    assert.ok(r.text.includes("Don't run any code unless I ask you to."), r.text);
    assert.ok(r.optimizedTokens <= r.budgetTokens, `${r.optimizedTokens} > ${r.budgetTokens}`);
  });
});

describe('core/passes/prune', () => {
  it('removes only meaning-free words, and only as far as needed', () => {
    const text = 'It is extremely important and quite urgent that you check the totally broken build before the release.';
    const full = tokenizer.count(text);
    const doc = parse(text);
    prune.run(doc, context(full - 1));
    const once = render(doc);
    assert.ok(tokenizer.count(once) <= full - 1 && tokenizer.count(once) >= full - 2, once);
    const all = parse(text);
    prune.run(all, context(1));
    assert.equal(render(all), 'It is important and urgent that you check the broken build before the release.');
  });

  it('never removes prepositions, conjunctions, quantifiers, negations or logic words', () => {
    const texts = [
      'Do not promise refunds above $250 without escalating.',
      'You DO NOT need to wait until the end of a task to create a memory.',
      'When you build a multi turn conversation app, make sure to test each turn or the whole flow.',
      'Reply in English or French, but only when the user asks, per ticket, before noon and after lunch.',
      'Use more than two and less than five examples instead of one.',
    ];
    for (const text of texts) {
      const doc = parse(text);
      prune.run(doc, context(1));
      assert.equal(render(doc), text);
    }
  });

  it('keeps "kind of" after a determiner: "what kind of file" is not a hedge', () => {
    const doc = parse('Ask what kind of file it is; it is kind of urgent.');
    prune.run(doc, context(1, 'strict'));
    assert.equal(render(doc), 'Ask what kind of file it is; it is urgent.');
  });

  it('keeps "at all" that starts a phrase ("at all depths"), and prunes it as an intensifier', () => {
    const doc = parse('Apply the clarifications at all depths. Do not answer anything at all.');
    prune.run(doc, context(1, 'strict'));
    assert.equal(render(doc), 'Apply the clarifications at all depths. Do not answer anything.');
  });

  it('prunes no intensifier that softens a negation ("not quite ready")', () => {
    const doc = parse('The report is not quite ready and the numbers are not totally final. It was absolutely the right call.');
    prune.run(doc, context(1, 'strict'));
    assert.equal(render(doc), 'The report is not quite ready and the numbers are not totally final. It was the right call.');
  });

  it('counts what a phrase saves in the encoding at hand, whatever was counted before', () => {
    for (const encoding of ['o200k_base', 'cl100k_base', 'o200k_base'] as const) {
      const counter = tokenizerFor(encoding);
      const candidate = pruneCandidates(segment('It was extremely loud.', '', counter), counter)[0];
      assert.equal(candidate?.saving, counter.count(' extremely'), encoding);
    }
  });

  it('does nothing when the text already fits', () => {
    const text = 'The cat sat on the extremely soft mat.';
    const doc = parse(text);
    prune.run(doc, context(100));
    assert.equal(render(doc), text);
  });
});

describe('core/passes/select: the request with thanks at its end', () => {
  it('keeps "Can you rewrite it to be faster, thanks!" where it went as talk to the reader (50% to 35%, strict)', () => {
    const text = [
      "I have a Python function that's supposed to deduplicate customer records, but it's really slow on our data (about 2 million rows) and honestly I'm not sure why. Can you rewrite it to be faster, thanks!",
      '',
      '```python\ndef dedupe(records):\n    result = []\n    for r in records:\n        if r not in result:\n            result.append(r)\n    return result\n```',
      '',
      'Each record is a dict with keys id, email, name and created_at. Two records are duplicates if their email matches case-insensitively; keep the one with the earliest created_at. It has to run on Python 3.9 and we can\'t add pandas. Please keep the function signature the same because other code calls it.',
    ].join('\n');
    for (const budget of ['50%', '45%', '40%', '35%']) assert.match(optimize({ text, budget, mode: 'strict' }).text, /Can you rewrite it to be faster/, budget);
  });

  it('keeps "Pourriez-vous m\'aider à rédiger …, merci beaucoup ?" in a French request at 50%', () => {
    const text = "Bonjour ! Pourriez-vous m'aider à rédiger un e-mail de relance pour une facture impayée, merci beaucoup ?\n\nContexte : je suis graphiste indépendante. Le client, la société Atelier Brume, me doit 2 340 € TTC pour la facture n° 2024-118, émise le 3 septembre. J'ai déjà envoyé un rappel le 10 octobre, sans réponse.\n\nLe ton doit rester cordial mais ferme. Mentionnez l'indemnité forfaitaire de 40 €, sans menacer de poursuites. Pas plus de 120 mots.";
    for (const mode of BOTH) assert.match(optimize({ text, budget: '50%', mode }).text, /Pourriez-vous m'aider à rédiger un e-mail de relance/, mode);
  });
});

describe('core/passes/select: the draft a request points back at', () => {
  it('keeps the quoted draft before "この下書きを…書き直していただけないでしょうか" with the request (50% and 45%, strict)', () => {
    const text = [
      'お疲れ様です。いつも大変お世話になっております。',
      'お忙しいところ恐れ入りますが、ご相談させていただけますでしょうか。',
      '',
      '来週、取引先の株式会社ミナトロジスティクス（営業部の佐々木部長）宛てに、納期遅延のお詫びメールを送る必要がございます。下書きを作成しましたので、ご確認いただけますと幸いです。',
      '',
      '「佐々木様　いつもお世話になっております。ご注文いただいた型番KX-220のセンサー500個ですが、部品不足のため、当初の納期である6月28日に間に合いません。7月12日に300個、7月26日に残り200個の分納とさせてください。すみません。」',
      '',
      'この下書きを、より丁寧なビジネスメールに書き直していただけないでしょうか。条件として、納期の日付と個数は絶対に変更しないでください。署名は「株式会社アサヒ精機　営業二課　高橋美咲」でお願いします。',
      '',
      'お手数をおかけして申し訳ございませんが、何卒よろしくお願い申し上げます。',
    ].join('\n');
    // Before, the draft went and "お忙しいところ恐れ入りますが、ご相談させていただけますでしょうか。" stayed.
    for (const budget of ['50%', '45%']) {
      const out = optimize({ text, budget, mode: 'strict' }).text;
      assert.match(out, /7月12日に300個/, budget);
      assert.match(out, /この下書きを/, budget);
      assert.doesNotMatch(out, /恐れ入ります/, budget);
    }
  });
});

describe('core/passes/select: a line that announces examples', () => {
  it('keeps "Here are some examples." only with an example under it', () => {
    const examples = ['Where is my order? It was due Tuesday.|SHIPPING_STATUS', 'I cannot log in, the reset email never comes.|ACCOUNT_ACCESS', 'The lid cracked after two uses.|PRODUCT_QUESTION', 'I want a full refund to my Visa.|REFUND']
      .map((e) => `Message: "${e.split('|')[0]}"\nIntent: ${e.split('|')[1]}`).join('\n\n');
    const text = `Classify each customer message into one of these intents: REFUND, SHIPPING_STATUS, ACCOUNT_ACCESS, PRODUCT_QUESTION, OTHER. Respond with the label only.\n\nIf a message has two intents, pick the one the customer is most upset about. Do not use REFUND unless the customer asks for money back.\n\nHere are some examples.\n\n${examples}\n\nNow classify this message:\n\nMessage: "I got the wrong model and want my $89 back."\nIntent:`;
    // Before, at 50% the line stood over nothing: every example had gone.
    for (let percent = 20; percent <= 80; percent += 5) {
      const out = optimize({ text, budget: `${percent}%`, mode: 'strict' }).text;
      if (out.includes('Here are some examples.')) assert.match(out, /Here are some examples\.\n\nMessage: "[^"]+"\nIntent: [A-Z_]+\n/, `${percent}%: ${out}`);
    }
  });
});

describe('core/passes/select: a retrieved document\'s title', () => {
  it('keeps "[Doc 4] Parks Department newsletter, August 2024." only with a sentence of its document', () => {
    const text = [
      'Use the sources below to answer the question at the end. Base your answer only on these sources.',
      '[Doc 1] City Council minutes, 12 March 2024. The council voted 7–2 to approve the Riverside Bike Lane project with a budget of $2.4 million. Construction was scheduled to finish by November 2024.',
      '[Doc 2] Local newspaper "The Harbor Gazette", 3 May 2024. A new bakery opened on Main Street. The bakery is open Tuesday to Sunday from 7 am to 3 pm.',
      '[Doc 3] Public Works update, 18 September 2024. The new completion date is March 2025. The revised budget is $2.9 million, an increase of $500,000.',
      '[Doc 4] Parks Department newsletter, August 2024. Summer concerts in Lakeside Park attracted over 5,000 visitors.',
      'Question: What is the current budget and completion date of the Riverside Bike Lane?',
    ].join('\n\n');
    const task = 'What is the current budget and completion date of the Riverside Bike Lane?';
    // Before, at 50% with the question as task, "[Doc 4] …, August 2024." stood alone: its date made it specific.
    for (const t of [task, undefined]) {
      for (let percent = 20; percent <= 80; percent += 5) {
        const out = optimize({ text, budget: `${percent}%`, mode: 'strict', task: t }).text;
        for (const line of out.split('\n')) if (/^\[Doc \d\]/.test(line)) assert.match(line, /^\[Doc \d\][^.]+\d{4}\. \S/, `${percent}% ${t ? 'task' : 'no task'}: ${line}`);
      }
    }
  });
});

describe('core/passes/select: an excerpt under "Source: …"', () => {
  it('keeps an excerpt\'s sentences only with the line that names their source', () => {
    const text = [
      'You are a research assistant helping a pharmacist. Quote exact dosage numbers from the sources. If an excerpt is about a different drug, ignore it.',
      'Source: Product monograph, Amoxiclav 875/125 tablets (2023 revision)\nThe usual adult dose is one 875/125 mg tablet every 12 hours. For patients with a creatinine clearance below 30 mL/min, the 875/125 mg tablet should not be used.',
      'Source: Hospital formulary note, Metformin extended release\nMetformin XR is contraindicated when eGFR is below 30 mL/min. Do not crush or chew the tablets.',
      'Source: Patient leaflet, Ibuprofen 200 mg\nAdults may take one or two tablets every four to six hours. Do not exceed six tablets in 24 hours.',
      'Question: A patient with a creatinine clearance of 22 mL/min has been prescribed Amoxiclav 875/125 mg twice daily. Is this appropriate?',
    ].join('\n\n');
    // Before, "Do not crush or chew the tablets." could stand without "Source: … Metformin …": advice for another drug.
    for (let percent = 25; percent <= 85; percent += 5) {
      const out = optimize({ text, budget: `${percent}%`, mode: 'strict' }).text;
      for (const block of out.split('\n\n').slice(1, -1)) assert.match(block, /^Source: [^\n]+\n\S/, `${percent}%: ${block}`);
    }
  });
});

describe('core/passes/select: a rule\'s condition', () => {
  it('never keeps a sentence\'s opening condition without its main clause', () => {
    const text = '# Billing rules\n\nAll money amounts are integers in cents. Never use floats for money.\n\nIf a requirement is ambiguous, especially around tax, rounding or currency conversion, stop and ask instead of guessing. It is fine to leave a `// TODO(billing):` comment with the open question.\n\nUse the shared `Money` type for every amount, and format it with `formatMoney` only in the UI layer.';
    // Before, at 50% "If a requirement is ambiguous, especially around tax." stood as the rule.
    for (let percent = 20; percent <= 90; percent += 5) {
      const out = optimize({ text, budget: `${percent}%`, mode: 'strict' }).text;
      assert.ok(!/If a requirement is ambiguous[^.]*\.(?!.*stop and ask)/s.test(out) || out.includes('stop and ask'), `${percent}%: ${out}`);
      assert.doesNotMatch(out, /especially around tax\./, `${percent}%`);
    }
  });
});

describe('core/passes/prune capitalisation', () => {
  it('keeps a capital at the start of a sentence whose first word was pruned', () => {
    const doc = parse('Obviously the event was held at the arena.');
    prune.run(doc, context(1));
    assert.equal(render(doc), 'The event was held at the arena.');
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

describe('core/passes/select: what goes on from the sentence before', () => {
  it('keeps "但是…", "また、…" and "But …" of an account only with the sentence they go on from', () => {
    const zh = [
      '麻烦帮我改一封商务邮件！',
      '情况大概是这样：我们公司上个月跟德国客户 Müller GmbH 签了 1,200 台 LQ-S300 传感器的订单，合同交货日期是 6 月 28 日。但是因为上游芯片供应商（TI 的 TPS62840 缺货）延迟，我们最快只能在 7 月 12 日发货。老板让我写封邮件说明情况。',
      '我的初稿如下：',
      '> 尊敬的 Schmidt 先生：我们最快只能 7 月 12 日发货了，非常抱歉。为了表示歉意，我们愿意打 3% 的折扣。王磊',
    ].join('\n\n');
    // Before, at 33% and 25% relaxed the output went from the request to "但是因为上游芯片供应商…".
    keptOnlyWith(zh, '但是因为上游', '情况大概是这样', 'a "but" with nothing before it', 20, BOTH);
    const ja = 'レビューをお願いできますでしょうか。\n\n現在、社内の在庫管理システム（Next.js 14.2 + Prisma 5.14）で在庫を一括更新するAPIを実装しています。また、ビルド時に型エラーも出ていて、原因がよくわかっておりません。\n\n説明は日本語でお願いいたします。';
    keptOnlyWith(ja, 'また、ビルド時に', '在庫管理システム', 'an "also" with nothing before it', 20, BOTH);
    const en = 'Review the handler below.\n\nOur webhook handler at /webhooks/stripe receives the invoice.paid event and marks the order as paid in Postgres 15. But since Monday some orders are marked twice and the customer gets two receipts.\n\nKeep the fix small.';
    keptOnlyWith(en, 'But since Monday', 'Our webhook handler', 'a "but" with nothing before it', 20, BOTH);
    // As "It …" and "This …" do in English, "她…", "这个…", "その…" point at the sentence before.
    const minutes = '麻烦帮我整理一个给管理层看的摘要。\n\n## 测试情况\n\n王晓彤说回归测试用例一共 412 条，目前通过 367 条。失败的主要集中在多币种金额换算上，比如 ¥1,000 被错误地乘以 100 传给了 Stripe。她强调这个问题必须在上线前修复。\n\n## 上线计划\n\nKevin 提出 6 月 10 日先切 5% 流量，6 月 17 日全量。';
    keptOnlyWith(minutes, '她强调这个问题', '被错误地乘以 100', 'a "she" and "this problem" with nothing before them', 20, BOTH);
  });

  it('lets a rule that opens with "also" stand on its own', () => {
    const text = 'チラシの文章を考えていただけないでしょうか。\n\nターゲットは20代から40代の女性です。「グルテンフリー」という言葉は使わないでください。また、「日本一」や「最高」のような最上級の表現も避けてください。';
    const outs = [20, 30, 40, 50, 60].map((p) => optimize({ text, budget: `${p}%`, mode: 'strict' }).text);
    assert.ok(outs.some((out) => out.includes('また、「日本一」') && !out.includes('グルテンフリー')), outs.join('\n---\n'));
  });
});

describe('core/passes/select: documents without a task', () => {
  it('keeps what the closing question asks about, out of several retrieved documents', () => {
    const text = [
      "You're a research assistant helping a pharmacist. Answer the question using the excerpts provided. Quote exact dosage numbers; never round them.",
      'Source: Product monograph, Amoxiclav 875/125 tablets (2023 revision)\nThe usual adult dose is one 875/125 mg tablet every 12 hours. For patients with a creatinine clearance below 30 mL/min, the 875/125 mg tablet should not be used. Duration of therapy should not usually exceed 14 days without review.',
      'Source: Hospital formulary note, Metformin extended release\nStarting dose is 500 mg once daily with the evening meal. Do not crush or chew the tablets.',
      'Source: Patient leaflet, Ibuprofen 200 mg\nTake one or two tablets every 4 to 6 hours. Do not exceed six tablets in 24 hours.',
      'Question: A 72-year-old patient with a creatinine clearance of 22 mL/min has been prescribed Amoxiclav 875/125 mg twice daily. Is this appropriate?',
    ].join('\n\n');
    // Before, at 60% the output kept the metformin and ibuprofen notes and nothing on the renal limit.
    for (const mode of BOTH) assert.match(optimize({ text, budget: '60%', mode }).text, /creatinine clearance below 30 mL\/min/, mode);
  });

  it('ranks the documents as a task would, by the closing question: a dated fact off the question does not outrank them', () => {
    const text = [
      'You are an assistant that answers employee questions using only the documents provided below. Cite the document ID in square brackets after each fact, like [DOC-2].',
      '<documents>\n<doc id="DOC-1" title="Parental Leave Policy (rev. 2024-02)">\nEmployees with at least 12 months of continuous service are entitled to 20 weeks of fully paid parental leave, regardless of gender. Employees with less than 12 months of service receive 8 weeks at full pay and the remainder of the statutory leave at statutory pay. Employees must notify their manager and HR at least 8 weeks before the intended start date.\n</doc>\n' +
        '<doc id="DOC-2" title="Phased Return to Work">\nAfter parental leave of 12 weeks or more, employees may use a phased return: for the first 4 weeks back they may work 60% of their contracted hours at full pay.\n</doc>\n' +
        '<doc id="DOC-3" title="Office Relocation FAQ">\nThe Leeds office will move to 14 Wellington Place on 3 March 2025. Parking is limited to 12 spaces, reserved for employees with a blue badge first.\n</doc>\n</documents>',
      'Question: I joined the company in September 2023 and my baby is due on 10 January 2025. How many weeks of full pay do I get, when do I need to tell my manager, and can I come back part-time at first?',
    ].join('\n\n');
    // Before, at 50% DOC-3 (the office move, with its date and address) was the only document kept.
    for (const mode of BOTH) {
      const out = optimize({ text, budget: '50%', mode }).text;
      assert.ok(!out.includes('Leeds office') && /full pay/.test(out), `${mode}\n${out}`);
    }
  });
});
