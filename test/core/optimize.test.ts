import { strict as assert } from 'node:assert';
import { countTokens, optimize, OptimizeError } from '../../src/core';
import { sentenceText } from '../../src/core/doc';
import { segment } from '../../src/core/passes/segment';
import { tokenizerFor } from '../../src/core/tokenizer';

const code = (error: unknown) => (error instanceof OptimizeError ? `${error.code}:${error.param}` : String(error));

describe('core/optimize', () => {
  it('reports counts, reduction, budget, latency and the passes it ran', () => {
    const text = 'In order to finish, please run the tests. Due to the fact that CI is slow, it is really very slow.';
    const r = optimize({ text, budget: '50%' });
    assert.equal(r.originalTokens, countTokens(text));
    assert.equal(r.optimizedTokens, countTokens(r.text));
    assert.equal(r.budgetTokens, Math.floor(r.originalTokens / 2));
    assert.equal(r.reductionPercent, Math.round(((r.originalTokens - r.optimizedTokens) / r.originalTokens) * 10000) / 100);
    assert.ok(r.latencyMs >= 0);
    const names = r.passes.map((p) => p.name);
    assert.deepEqual(names.slice(0, 5), ['segment', 'cleanup', 'rewrite', 'dedupe', 'select']);
    assert.equal(names.at(-1), 'render');
    assert.equal(r.model, 'gpt-4o');
    assert.equal(r.encoding, 'o200k_base');
  });

  it('keeps a diff in <diff> tags whole or drops it whole, at every budget and mode', () => {
    const diff = '--- a/internal/auth/login.go\n+++ b/internal/auth/login.go\n@@ -40,7 +40,9 @@ func (h *Handler) Login() {\n-\trow := h.db.QueryRow("SELECT id FROM users WHERE email = $1", email)\n+\trow := h.db.QueryRow("SELECT id FROM users WHERE email = \'" + email + "\'")\n \tvar id int64\n@@ -52,3 +54,3 @@\n-\tif !bcryptCompare(hash, password) {\n+\tif hash != sha256Hex(password) {';
    const text = `<role>\nYou are a senior security reviewer for a Go 1.22 service.\n</role>\n\n<instructions>\nReview the diff in <diff> and report security issues only. Treat SQL built with string concatenation as CRITICAL. If you find no issues, reply with exactly "No security issues found."\n</instructions>\n\n<diff>\n${diff}\n</diff>`;
    for (const mode of ['strict', 'relaxed'] as const) {
      for (const budget of ['100%', '80%', '60%', '50%', '30%']) {
        const out = optimize({ text, budget, mode }).text;
        // Before, at 50% the output held the first hunk's header over the second hunk's lines.
        if (out.includes('\n<diff>\n')) assert.ok(out.includes(`<diff>\n${diff}\n</diff>`), `${mode} ${budget}: ${out}`);
        else assert.ok(!out.includes('@@'), `${mode} ${budget}: ${out}`);
        if (mode === 'relaxed') assert.ok(out.includes(diff), `${mode} ${budget}`);
      }
    }
  });

  it('keeps a quoted letter as written where the budget allows, and still edits a callout of the prompt\'s own', () => {
    // Before, "please tell me in writing" became "tell me in writing" inside the letter the user quoted.
    const letter = '> Dear Ms. Halvorsen,\n>\n> I would like the repair done by September 20. If that is not possible, please tell me in writing when it will be done.\n>\n> Thanks,\n> Tomás';
    const text = `Please rewrite my letter to my landlord so it is clear. Keep every date.\n\n${letter}`;
    assert.ok(optimize({ text, budget: 1000 }).text.endsWith(letter));
    const callout = 'Run the tests before you commit.\n\n> **Note**: Please do not push to main directly.';
    assert.equal(optimize({ text: callout, budget: 1000 }).text, "Run the tests before you commit.\n\n> **Note**: Don't push to main directly.");
  });

  it('quotes a retrieved excerpt under an unnumbered "Source:" label as written', () => {
    // Before, "should not be used" became "shouldn't be used" in the monograph the answer must quote.
    const excerpt = 'Source: Product monograph, Amoxiclav 875/125 tablets (2023 revision)\nFor patients with a creatinine clearance below 30 mL/min, the 875/125 mg tablet should not be used. Please check the renal handbook.';
    const text = `You are a research assistant. Quote exact dosage numbers from the sources.\n\n${excerpt}\n\nQuestion: Is 875/125 mg appropriate at 22 mL/min?`;
    assert.ok(optimize({ text, budget: 1000 }).text.includes(excerpt));
  });

  it('quotes retrieved documents numbered "[1] Source: …" as written, and never keeps a text without its source line', () => {
    // Before, "Do not roll back across …" was an instruction of the prompt (reworded to "Don't"), and at 25%
    // "[2] Source: …" went while its text stayed under the 2023 document's header.
    const doc1 = '[1] Source: wiki/deploy/runbook-rollback.md (updated 2023-11-02)\nTo roll back, run `deployctl rollback payments --to <release-id>`. Releases are kept for 14 days.';
    const doc2 = '[2] Source: wiki/deploy/runbook-rollback-v2.md (updated 2024-09-18)\nSince deployctl 3.0, rollbacks use `deployctl release revert payments <release-id>`. Releases are now kept for 30 days. Do not roll back across a database migration marked `irreversible: true`.';
    const text = `Answer the question based on the retrieved context. If documents conflict, prefer the newest one.\n\n### Retrieved context\n\n${doc1}\n\n${doc2}\n\n### Question\n\nHow do I roll back release r-20241104-2 of payments safely?`;
    assert.ok(optimize({ text, budget: '100%' }).text.includes(doc2));
    for (const budget of ['50%', '33%', '25%']) {
      const out = optimize({ text, budget, mode: 'strict' }).text;
      for (const [n, body] of [['[1]', 'Releases are kept for 14 days'], ['[2]', 'now kept for 30 days']] as const)
        if (out.includes(body)) assert.ok(out.includes(`${n} Source:`), `${budget}\n${out}`);
    }
  });

  it('quotes a document titled "[Dokument A – …]" or "【资料1】" as written', () => {
    for (const doc of ['[Dokument A – VPN-Richtlinie, Stand 02/2024]\nPrivate Geräte dürfen nicht verwendet werden, außer sie wurden bitte vorher registriert.', '【资料1】《员工年假管理办法》\n员工请年假须提前3个工作日申请，谢谢配合。']) {
      const out = optimize({ text: `Answer from the documents only.\n\n${doc}\n\nQuestion: Can I use my laptop?`, budget: '100%' }).text;
      assert.ok(out.includes(doc), out);
    }
  });

  it('keeps the ideographic space that indents a Japanese paragraph', () => {
    // Before, "　鈴木より、…" lost its indent at every budget.
    const text = '議事録です。\n\n　鈴木より、見積もりを報告。A社で進める。\n\n　田中より、締切を報告。';
    assert.equal(optimize({ text, budget: 1000 }).text, text);
    assert.match(optimize({ text, budget: 20, mode: 'strict' }).text, /\n\n　鈴木より/);
  });

  it('keeps the request in relaxed mode when the code it keeps fills the budget', () => {
    const schema = '```sql\nCREATE TABLE customers (\n  id SERIAL PRIMARY KEY,\n  email TEXT NOT NULL UNIQUE,\n  country CHAR(2) NOT NULL,\n  created_at TIMESTAMPTZ NOT NULL DEFAULT now()\n);\n\nCREATE TABLE orders (\n  id SERIAL PRIMARY KEY,\n  customer_id INT NOT NULL REFERENCES customers(id),\n  status TEXT NOT NULL CHECK (status IN (\'pending\', \'paid\', \'refunded\', \'cancelled\')),\n  total_cents INT NOT NULL,\n  placed_at TIMESTAMPTZ NOT NULL\n);\n```';
    const request = 'What I need is a query that lists, for each country, the number of distinct customers who placed at least two paid orders in 2024, with the total revenue from those orders in euros.';
    const text = `Hey there! Hope your day is going well. I run a small online bookshop and I am trying to pull a report out of our Postgres database. Here is the schema:\n\n${schema}\n\n${request} Refunded and cancelled orders should not count. Sort the result by revenue, highest first.\n\nI tried a single GROUP BY but the numbers came out too high. We are on Postgres 15. Thanks so much in advance!`;
    // Before, at 50% the output was the greeting, the schema and a rule about "such customers": no query asked for.
    for (const budget of ['60%', '50%', '40%']) {
      const r = optimize({ text, budget, mode: 'relaxed' });
      assert.ok(r.text.includes(schema) && r.text.includes(request), `${budget}: ${r.text}`);
    }
  });

  it('runs only the meaning-preserving passes when the budget is not binding', () => {
    const r = optimize({ text: 'Please note that the build is slow.', budget: 1000 });
    // Articles stay: at a budget the prompt already fits, the output reads as the user wrote it.
    assert.equal(r.text, 'Note: the build is slow.');
    assert.deepEqual(r.passes.map((p) => p.name), ['segment', 'cleanup', 'rewrite', 'dedupe', 'render']);
    assert.deepEqual(r.removed, []);
    assert.equal(r.softLimitEnforced, false);
  });

  it('reports an aside dropped at any budget as a removed sentence, and rewording not at all', () => {
    const r = optimize({ text: 'Please note that the build is slow. Thanks so much in advance!', budget: 1000 });
    assert.equal(r.text, 'Note: the build is slow.');
    assert.deepEqual(r.removed, [{ pass: 'rewrite', kind: 'sentence', text: 'Thanks so much in advance!' }]);
  });

  it('never rewords a retrieved document that answers must cite', () => {
    const docs = '### Document 1\nID: HR-112\n\nTravel that is not approved in advance is not reimbursable. It does not count as working time.\n\n[Doc 2] Remote work\n\nRemote work is not permitted in the first month.';
    const text = `You answer from the documents below. Please do not guess.\n\n${docs}\n\n### Question\n\nCan I work remotely?`;
    const out = optimize({ text, budget: 1000 }).text;
    assert.ok(out.includes(docs), out);
    assert.ok(out.includes("Don't guess."), 'the instructions are still reworded');
    // An inline document is one paragraph: what follows it is the prompt again.
    const inline = optimize({ text: '[Doc 1] Release notes v4.8.2: Fixed CSV export. It is not signed.\n\nAnswer with the version only. I hope that makes sense!', budget: 1000 }).text;
    assert.equal(inline, '[Doc 1] Release notes v4.8.2: Fixed CSV export. It is not signed.\n\nAnswer with the version only.');
  });

  it('keeps a draft quoted over several paragraphs as written', () => {
    const draft = '"To whom it may concern, I am writing to recommend Mei-Lin.\n\nHonestly she was very good, really one of the best.\n\nPlease contact me if you have any questions."';
    const out = optimize({ text: `Please rewrite my draft below.\n\n${draft}\n\nThanks so much!`, budget: 1000 }).text;
    assert.equal(out, `Rewrite my draft below.\n\n${draft}`);
  });

  it('opens and closes a draft quoted over several paragraphs whichever of them are kept', () => {
    const draft = [
      '"To whom it may concern, I am writing to recommend Mei-Lin Castellanos for your master\'s program.',
      'Honestly she was very good, really one of the best research assistants I have had in eleven years at the Coastal Systems Lab.',
      'She built the tide-gauge pipeline for 37 stations and presented it at the national coastal science conference in May 2023.',
      'I recommend her without reservation. Best regards, Aaron Feldt"',
    ].join('\n\n');
    const text = `Please turn my rambling draft into a polished recommendation letter of one page.\n\n${draft}\n\nKeep every date and number.`;
    for (let share = 30; share <= 90; share += 10) {
      const out = optimize({ text, budget: `${share}%`, mode: 'strict' }).text;
      const marks = (out.match(/"/g) ?? []).length;
      assert.equal(marks % 2, 0, `${share}%: ${out}`);
      if (/Mei-Lin|tide-gauge|without reservation/.test(out)) assert.match(out, /\n\n"[A-Z][^"]*"/, `${share}%: ${out}`);
    }
  });

  it('drops a sentence of a quoted draft, not the whole draft, when the draft alone is over budget', () => {
    const draft =
      '"Hi Mr. Okafor, the heating in flat 3B has been broken since 12 January and nobody came. It is really cold and I have a baby. ' +
      'I want it fixed by Friday 2 February or I will contact the housing team. Thanks, Dana"';
    const text = `Rewrite my email to my landlord so it sounds firm but polite.\n\nMy draft:\n${draft}`;
    const r = optimize({ text, budget: '70%', mode: 'strict' });
    assert.ok(r.optimizedTokens <= r.budgetTokens, r.text);
    // The draft keeps its quotation marks and its words as written, less a sentence or two.
    const quote = /"[^"]+"/.exec(r.text)?.[0] ?? '';
    assert.ok(quote.length > 40, r.text);
    assert.ok(draft.includes(quote.slice(1, -1).split(/(?<=[.?]) /)[0]!), r.text);
    assert.ok(r.text.startsWith('Rewrite my email'), r.text);
  });

  it('keeps a quoted question whole as the final input: it is pinned, not its last sentence', () => {
    const question = '"Hi, my partner is due in September and I will be the primary caregiver. How much paid leave do I get? Would the company pay for the flights?"';
    const policy = 'The primary caregiver receives 16 weeks of fully paid leave. Business travel must be booked through the travel portal. '.repeat(3).trim();
    for (const budget of ['60%', '40%']) {
      const r = optimize({ text: `You answer HR questions from the policy below.\n\n${policy}\n\n### Question\n\n${question}`, budget, mode: 'strict' });
      assert.ok(r.text.endsWith(question), `${budget}: ${r.text}`);
    }
  });

  it('keeps the spaces inside French quotation marks as written', () => {
    const quote = '« Bonjour, il y a eu une fuite hier soir. Mon canapé est fichu. Est-ce que je suis couvert ? »';
    assert.ok(optimize({ text: `Répondez au client.\n\nQuestion du client :\n${quote}`, budget: '100%' }).text.endsWith(quote));
  });

  it('reads text between lines of triple quotes as quoted input: both delimiters stay with what is kept of it', () => {
    const resume = '"""\nPriya Ramanathan, Senior Data Engineer at Tessellate Labs (since 2021)\npriya@example.org, Bristol\nSkills: Python, Spark, Airflow, dbt, Snowflake, Kafka\n"""';
    const text = `Extract the name, email and skills from the résumé below as JSON. Don't include phone numbers.\n\nRésumé:\n${resume}\n\nThanks so much!`;
    assert.ok(optimize({ text, budget: '100%' }).text.includes(`Résumé:\n${resume}`));
    for (const budget of ['80%', '60%']) {
      const out = optimize({ text, budget, mode: 'strict' }).text;
      assert.equal((out.match(/"""/g) ?? []).length % 2, 0, `${budget}: ${out}`);
      if (out.includes('"""')) assert.match(out, /Résumé:\n"""\n[^"]+\n"""/, `${budget}: ${out}`);
    }
  });

  it('never keeps the sign-off of a quoted draft alone, in any language', () => {
    const draft = '"Según el contrato tenéis que avisar con 48 horas de antelación. Queremos la penalización del 5 % de la cláusula 9. Saludos, Nuria"';
    const text = `Reescribe mi correo al proveedor, formal y firme.\n\nMi borrador:\n${draft}`;
    for (let share = 30; share <= 90; share += 10) {
      const out = optimize({ text, budget: `${share}%`, mode: 'strict' }).text;
      assert.ok(!/"Saludos, Nuria"/.test(out), `${share}%: ${out}`);
    }
  });

  it("keeps a transcript's turns as said: never reworded, and a line's later sentences only with its speaker's name", () => {
    const lines = [
      'Regina (chair): Okay, let us start. Carlos, Fatima and Jorge are here. Luana sent her apologies.',
      'Carlos (treasurer): First item, the court repairs. We have three quotes: 18k, 22k and 31k.',
      'Fatima: The 22k one includes new lighting, the others do not.',
      'Jorge: I think the 22k one is worth it. Lighting is what people ask for most.',
      'Regina: All agreed on the 22k quote from Quadra Viva? Approved then.',
      'Carlos: I will sign the contract with them by 15 April. Thanks, that is really helpful.',
    ];
    const text = `Write short minutes of this board meeting with decisions and owners.\n\nTranscript:\n\n${lines.join('\n')}`;
    assert.ok(optimize({ text, budget: '100%' }).text.endsWith(lines.join('\n')));
    for (let share = 20; share <= 90; share += 10) {
      const out = optimize({ text, budget: `${share}%`, mode: 'strict' }).text;
      // Every kept line of the transcript opens with its speaker, and holds sentences of that speaker only.
      for (const line of out.split('\n').slice(out.split('\n').indexOf('Transcript:') + 2)) {
        if (!line.trim()) continue;
        const said = lines.find((l) => l.startsWith(line.slice(0, line.indexOf(':') + 1)) && line.split(/(?<=[.?!]) /).every((s) => l.includes(s)));
        assert.ok(said, `${share}%: ${JSON.stringify(line)}\n${out}`);
      }
    }
  });

  it('reads a French transcript ("Élise Delacroix : …") and one under numbered agenda items ("1. …", then "佐藤：…") as turns, never reworded', () => {
    // Before, "Franchement," went from the quote to pull and "田中：すみません、訂正です。" whole, each at 100%.
    const fr = ['Intervieweur : Et la fibre ?', 'Élise Delacroix : Franchement, on a attendu la fibre pendant trois ans.', 'Intervieweur : Et aujourd\'hui ?', 'Élise Delacroix : Aujourd\'hui on a 140 adhérents, franchement.'];
    const frText = `Extrayez les citations les plus fortes, mot pour mot.\n\nTranscription :\n\n${fr.join('\n')}`;
    assert.ok(optimize({ text: frText, budget: '100%' }).text.includes(fr.join('\n')));
    const ja = '1. リリース日について\n佐藤：v2.3のリリースは11月1日で確定とします。\n田中：すみません、訂正です。API側の改修が残っているので、11月8日でお願いします。\n佐藤：では、11月8日で確定します。\n\n2. 負荷試験\n田中：目標は毎秒500リクエストです。\n佐藤：山本さんが担当、10月29日までに実施してください。';
    const jaText = `以下の議事録をもとに報告メールを作成してください。\n\n${ja}`;
    assert.ok(optimize({ text: jaText, budget: '100%' }).text.includes(ja));
  });

  it('keeps what a speaker corrects only with the correction, in every language', () => {
    // Before, "So the launch is on the 12th." stayed at 50% and "Actually, scratch that — …" went: the
    // summary would carry the old date.
    const cases: [string, string, string][] = [
      ['Summarise the meeting into decisions with owners and dates.', 'Maya: The venue is booked and the caterer confirmed 120 guests. So the launch is on the 12th. Actually, scratch that — it has to be the 14th, the hall is taken on the 12th.\nLeo: I will send the invitations by Friday, and the budget stays at $4,200.\nMaya: Then Leo owns the invitations and I own the venue.', 'So the launch is on the 12th.'],
      ['Résumez cet entretien en trois citations.', "Élise : C'était en 2019. Enfin non, pardon, c'était en 2018, à l'automne.\nIntervieweur : Et le financement ?\nÉlise : Au début, zéro subvention. On a fait un financement participatif, 23 400 euros en six semaines.", "C'était en 2019."],
      ['Resuma a reunião com decisões e prazos.', 'Camila: Fernanda, você revisa o orçamento até dia 15? Na verdade, não — até dia 12, porque a diretoria se reúne no dia 13.\nFernanda: Combinado, dia 12.\nCarlos: Eu fecho o contrato com a Quadra Viva até o dia 15 de abril, valor de R$ 22.000.', 'até dia 15?'],
    ];
    for (const [ask, transcript, corrected] of cases) {
      const text = `${ask}\n\n${transcript}`;
      for (let share = 20; share <= 90; share += 10) {
        const out = optimize({ text, budget: `${share}%`, mode: 'strict' }).text;
        const correction = transcript.slice(transcript.indexOf(corrected) + corrected.length).trim().split(/(?<=[.?!])\s/)[0]!;
        if (out.includes(corrected)) assert.ok(out.includes(correction), `${share}%: ${out}`);
      }
    }
  });

  it('keeps every item of a closed set ("and only these:") or none: without one of them the lead-in forbids it', () => {
    // Before, "You can use these tools, and only these:" kept three of five tools at 50%, and so forbade two.
    const tools = ['`codebase` — to read files and find where things are defined.', '`usages` — to find every caller of a method before you claim it is unreachable.', '`fetch` — only to look up CVE details on nvd.nist.gov. Never send code from this repo to an external URL.', '`githubRepo` — to read the PR description and previous review comments.', '`problems` — to see compiler and static-analysis warnings.'];
    const text = `You are a security reviewer for the Ledgerly API (Java 21, Spring Boot 3.2).\n\n## Your tools\n\nYou can use these tools, and only these:\n\n${tools.map((t) => `- ${t}`).join('\n')}\n\nYou do **not** edit files. Report findings with a severity of BLOCKER, MAJOR or MINOR, and quote the line.\n\nNever approve a PR that builds SQL by string concatenation.`;
    for (let share = 20; share <= 90; share += 10) {
      for (const mode of ['strict', 'relaxed'] as const) {
        const out = optimize({ text, budget: `${share}%`, mode }).text;
        const kept = tools.filter((t) => out.includes(`- ${t.slice(0, t.indexOf(' '))}`)).length;
        assert.ok(kept === 0 || kept === tools.length, `${share}% ${mode}: ${out}`);
      }
    }
  });

  it('keeps a rule that names the table or code next to it ("these levels", "in this shape") only with it', () => {
    // Before, "Use exactly these levels." stayed at 1000 tokens strict without its table, and "Please keep new
    // handlers in this shape." under "## Example" without the code (found by a reader).
    const table = '| Severity | Meaning |\n|---|---|\n| **Critical** | Exploitable now, leads to card data exposure or auth bypass |\n| **High** | Exploitable with some preconditions, or a PCI DSS violation |\n| **Low** | Hardening or hygiene |';
    const code = '```ts\nexport async function handler(req: Request): Promise<Response> {\n  const body = schema.parse(await req.json());\n  return json(await service.run(body));\n}\n```';
    const text = `You review pull requests of the payments API for security issues.\n\n## Checks\n\n1. SQL built with string concatenation is a finding.\n2. Every endpoint needs \`@PreAuthorize\` with a merchant scope.\n3. Webhooks must verify the HMAC signature before parsing.\n\n## Severity levels\n\nUse exactly these levels.\n\n${table}\n\n## Example\n\n${code}\n\nPlease keep new handlers in this shape.`;
    for (let share = 20; share <= 90; share += 10) {
      const out = optimize({ text, budget: `${share}%`, mode: 'strict' }).text;
      if (out.includes('these levels')) assert.ok(out.includes(table), `${share}%: ${out}`);
      if (out.includes('in this shape')) assert.ok(out.includes(code), `${share}%: ${out}`);
    }
  });

  it('keeps the code a request works on by pronoun ("… a test module for it") before the request\'s details', () => {
    // Before, at 60% strict the function went and its edge cases stayed: "for it" pointed at nothing.
    const code = "```python\ndef parse_duration(value: str) -> float:\n    total = 0.0\n    for amount, unit in _PATTERN.findall(value.strip().lower()):\n        total += float(amount) * _UNITS[unit]\n    return total\n```";
    const cases = ['"1h30m" → 5400.0', '"250ms" → 0.25', '"2.5s" → 2.5', '"" → ValueError("empty duration")', '"10x" → ValueError', 'None → TypeError'];
    const text = `I maintain a small Python library (Python 3.11, pytest 8.1) and our lead, Marcus, wants coverage up before release 2.4.0.\n\n${code}\n\nCould you write a pytest module (tests/test_duration.py) for it? These are the edge cases I want covered:\n\n${cases.map((c) => `- ${c}`).join('\n')}\n\nDon't change the function itself.`;
    const out = optimize({ text, budget: '75%', mode: 'strict' }).text;
    assert.ok(out.includes(code) && out.includes('for it'), out);
  });

  it('reads a pasted email thread as material: a wrapped quoted line is one sentence, and no letter is left as its salutation and signature', () => {
    // Before, "> The outage … lasted 2 hours and was" stayed without its next line, the forwarded mail lost
    // "Frankly," at 100%, and at 50% "Alex,\n\nJennifer" was all that was left of it (found by a reader).
    const mail = 'Alex,\n\nFrankly this isn\'t good enough. Our Black Friday planning depends on these dashboards. I want a 25% credit and a written root-cause analysis by the 15th.\n\nJennifer';
    const quoted = '> Hi Jennifer,\n> Thanks for your patience. The outage on Nov 8 lasted 2 hours 47 minutes and was\n> caused by a failed database failover. We will send a root-cause report by the 15th.\n> Best, Alex';
    const text = `I need to draft a reply to the thread below. Offer the 15% credit, not 25%, and confirm the report by November 20th. Keep it under 200 words.\n\n---------- Forwarded message ---------\nFrom: Jennifer Okafor <j.okafor@meridianretail.com>\nDate: Tue, Nov 12, 2024 at 9:14 AM\nSubject: Re: Dashboard outage\n\n${mail}\n\n${quoted}`;
    assert.ok(optimize({ text, budget: '100%' }).text.includes(mail));
    for (let share = 20; share <= 90; share += 10) {
      const out = optimize({ text, budget: `${share}%`, mode: 'strict' }).text;
      if (out.includes('lasted 2 hours 47 minutes and was')) assert.ok(out.includes('lasted 2 hours 47 minutes and was\n> caused by a failed database failover.'), `${share}%: ${out}`);
      // A salutation or signature stands only with some of the letter's text.
      if (/^Alex,$/m.test(out) || /^Jennifer$/m.test(out)) assert.ok(/Frankly|Black Friday|25% credit/.test(out), `${share}%: ${out}`);
      if (out.includes('> Hi Jennifer,') || out.includes('> Best, Alex')) assert.ok(/patience|outage|report by the 15th/.test(out), `${share}%: ${out}`);
    }
  });

  it('reads Japanese "・" lines as list items: a rule of two sentences is kept whole, with its bullet', () => {
    // Before, "・数字や日付は議事録の通りに書いてください。推測で補わないでください。" became a bare
    // "推測で補わないでください。" at 50% (found by a reader).
    const rules = ['・300字以内で、敬語でお願いします。', '・決定事項と宿題（担当者・期限つき）を必ず含めてください。', '・未決事項は「未決」と明記してください。', '・数字や日付は議事録の通りに書いてください。推測で補わないでください。'];
    const text = `以下の議事録をもとに、部長向けの報告メールを作成していただけますでしょうか。条件は以下の通りです。\n\n${rules.join('\n')}\n\n議事録\n佐藤：v2.3のリリースは11月8日で確定します。\n山本：決済画面でエラーコードE-4012が発生しています。再現率は約15%です。\n鈴木：フロント側の原因です。10月22日までに修正します。`;
    for (let share = 20; share <= 90; share += 10) {
      const out = optimize({ text, budget: `${share}%`, mode: 'strict' }).text;
      for (const line of out.split('\n')) if (line.includes('推測で補わないでください')) assert.equal(line, rules[3], `${share}%: ${out}`);
    }
  });

  it('never cuts a question to a clause: "… is currently `text`; does changing it force a rewrite?" is asked whole or not at all', () => {
    // Before, at 50% the concern became "- `customer_email` is currently `text`?" (found by a reader).
    const concerns = ['`customer_email` is currently `text`; does changing it to `varchar(320)` force a full table rewrite on Postgres 15?', 'Will the index on `(status, created_at)` block writes while it builds, given that we run the migration inside a single transaction?', 'The `orders` table has about 48 million rows and sees 300 writes per second at peak; is a five-second statement timeout enough?'];
    const text = `Please review this migration for lock and downtime risks before I run it on Friday.\n\n\`\`\`sql\nALTER TABLE orders ALTER COLUMN customer_email TYPE varchar(320);\nCREATE INDEX idx_orders_status ON orders (status, created_at);\n\`\`\`\n\nMy concerns:\n\n${concerns.map((c) => `- ${c}`).join('\n')}\n\nDon't suggest pg_repack, we can't install extensions.`;
    for (let share = 20; share <= 90; share += 5) {
      const out = optimize({ text, budget: `${share}%`, mode: 'strict' }).text;
      for (const line of out.split('\n')) if (line.endsWith('?')) assert.ok(concerns.some((c) => line.endsWith(c.slice(-30))), `${share}%: ${line}`);
    }
  });

  it('keeps a retrieved document\'s fields (<source>, <updated>) only with some of its text, never as an empty shell', () => {
    // Before, at 50% "<document index=\"3\">" kept its "<updated>" and none of its text (found by a reader).
    const doc = (i: number, source: string, updated: string, text: string) => `<document index="${i}">\n<source>${source}</source>\n<updated>${updated}</updated>\n<document_content>\n${text}\n</document_content>\n</document>`;
    const text = `You are a support assistant for Northpeak Cloud. Answer using only the documents below, and cite them like [2].\n\n<documents>\n${[
      doc(1, 'kb/plans/backups.md', '2024-11-02', 'All plans include automated daily backups. Starter plans keep backups for 7 days, Pro plans for 30 days. Backups are taken between 02:00 and 04:00 UTC.'),
      doc(2, 'kb/plans/restore.md', '2025-01-15', 'A restore overwrites the current server disk and cannot be undone. Starter plans can restore to the same server only.'),
      doc(3, 'kb/billing/upgrades.md', '2024-08-20', 'Plan upgrades take effect immediately and are billed pro rata. Upgrading from Starter to Pro costs an additional $18 per server per month.'),
    ].join('\n')}\n</documents>\n\nCustomer question: "I'm on Starter and deleted a table yesterday. How far back can I restore? Thanks!"`;
    for (let share = 20; share <= 90; share += 10) {
      for (const mode of ['strict', 'relaxed'] as const) {
        const out = optimize({ text, budget: `${share}%`, mode }).text;
        for (const part of out.split('<document index=').slice(1)) if (/<source>|<updated>/.test(part)) assert.ok(part.includes('<document_content>'), `${share}% ${mode}: ${out}`);
      }
    }
  });

  it('reads a mail thread to reply to as material, not a draft to rework: its headers never stand alone, and the rules to confirm outrank it', () => {
    // Before, at 50% the thread (pinned as the draft its request names) pushed out the four rules the reply
    // must confirm, and "> > From: Sunita Rao" stood without her mail (found by readers).
    const rules = ['1. Maximum 6 hours per group per day on weekdays.', '2. Overnight runs (8pm–7am) only for groups that have submitted the HS-12 safety form.', '3. Bookings must be made at least 48 hours in advance, except for calibration.', '4. No bookings during the helium fill window.'];
    const thread = ['From: Pavel Novak', 'Sent: Wednesday, 4 September 2024 11:20', 'To: Helen Marsh; Li Wei', 'Subject: RE: NMR schedule', '', 'Helen, I need the overnight slot on the 10th and 11th for the kinetics series. Our grant report is due on the 20th.', '', '> From: Li Wei', '> Sent: Tuesday, 3 September 2024 17:05', '>', '> The helium fill is probably on the 12th or 13th. I will know by Friday.', '>', '> > From: Sunita Rao', '> > Sent: Tuesday, 3 September 2024 09:41', '> >', '> > Can we please get some rules? My students have been bumped three times this week.'].join('\n');
    const text = `I'd appreciate your help drafting a reply to the email chain below. I'm Dr. Helen Marsh, lab manager.\n\nWhat I need: a polite, firm reply to everyone on the thread that (1) confirms the new booking rules, (2) tells Pavel his overnight slot needs the safety form first, and (3) asks Li Wei to confirm the helium fill date. Don't cc anyone new.\n\nThe new booking rules we agreed at the faculty meeting are:\n${rules.join('\n')}\n\nThread:\n\n${thread}`;
    assert.ok(rules.every((r) => optimize({ text, budget: '50%', mode: 'strict' }).text.includes(r)));
    for (let share = 20; share <= 90; share += 10) {
      const lines = optimize({ text, budget: `${share}%`, mode: 'strict' }).text.split('\n').map((l) => l.replace(/^(?:>\s?)+/, '').trim()).filter(Boolean);
      lines.forEach((line, i) => {
        if (/^(?:From|Sent|To):/.test(line)) assert.ok(lines.slice(i + 1).some((l) => !/^(?:From|Sent|To|Subject):/.test(l)) && !/^(?:From|Sent|To):/.test(lines[lines.length - 1]!), `${share}%: ${lines.join('\n')}`);
      });
    }
  });

  it('keeps a turn that only acknowledges ("Daniel: Will do.") only with the turn before it, and never for its own sake', () => {
    const turns = [
      'Priya: The Q2 launch of the mobile checkout redesign is the main topic today.',
      'Tomás: Engineering is at 70% of the stories; Apple Pay is the remaining big item, code complete on April 18.',
      'Priya: Daniel, can you set up the conversion dashboard for the launch by April 30?',
      'Daniel: Will do.',
      'Hannah: Billing is frozen from April 21 to 25 for the quarter close, so nothing ships that week.',
    ];
    const text = `Turn this sync into minutes with decisions, owners and dates.\n\nTranscript:\n\n${turns.join('\n')}`;
    // Before, at 33% "Daniel Kim: Will do." stood without the ask it answers (found by a reader).
    for (let percent = 20; percent <= 90; percent += 10) {
      const out = optimize({ text, budget: `${percent}%`, mode: 'strict' }).text;
      if (out.includes('Daniel: Will do.')) assert.ok(out.includes('by April 30?\nDaniel: Will do.'), `${percent}%: ${out}`);
    }
  });

  it('keeps a reply in a transcript ("Greta: Sure, …") only with the turn it answers', () => {
    const turns = [
      'Sam: Okay, let us start with what went well in Sprint 42.',
      'Hana: We shipped the refund API on time, with zero incidents after the release.',
      'Sam: Thanks, Hana. Greta, can you write the checklist for empty badges before the next planning?',
      'Greta: Sure, I will do it by Friday.',
      'Ola: The estimate was way off, we said 8 points and it was more like 20.',
      'Sam: Then we add a spike before estimating ledger work.',
    ];
    const text = `Summarise this retro into decisions and action items with owners.\n\nTranscript:\n\n${turns.join('\n\n')}`;
    for (let share = 20; share <= 90; share += 10) {
      const out = optimize({ text, budget: `${share}%`, mode: 'strict' }).text;
      // The question ends the turn before; the reply comes with it, and it with its speaker.
      if (out.includes('Greta: Sure')) assert.ok(out.includes('Greta, can you write') && out.includes('Sam: Thanks, Hana.'), `${share}%: ${out}`);
    }
  });

  it('keeps the lines of standup notes with their speakers, though each speaks once', () => {
    const lines = [
      'Anya: finished the search index migration yesterday, it took longer because of the reindex on staging. No blockers.',
      'Ben: still on the flaky e2e test in checkout, it fails one run in five. Blocked until DevOps restores the test database.',
      'Chidi: reviewing the four open PRs this morning, then pairing with Anya on the filters. Out Thursday and Friday.',
      'Dora: wrote the release notes for 3.14, need sign-off from Mark by noon. Otherwise the release slips to Monday.',
    ];
    const text = `Turn this standup into three bullets per person, blockers first.\n\n${lines.join('\n')}`;
    for (let share = 20; share <= 90; share += 10) {
      const out = optimize({ text, budget: `${share}%`, mode: 'strict' }).text;
      for (const line of out.split('\n').slice(2)) if (line.trim()) assert.match(line, /^(?:Anya|Ben|Chidi|Dora): /, `${share}%: ${out}`);
    }
  });

  it('never rewords the text a prompt asks to translate, under "## Source text" or 【翻訳対象】', () => {
    const source = 'Please make sure that you really do not open the door during the drying cycle. In order to clean the filter, remove it once a week.';
    const text = `Translate the manual section below into German. Keep the headings.\n\n## Source text\n\n${source}\n\n## Output\n\nMarkdown, one paragraph per heading.`;
    assert.ok(optimize({ text, budget: '100%' }).text.includes(source));
    const ja = '本機の周囲には、左右および背面に5 cm以上のすき間を設けてください。運転中はドアを開けないでください。';
    const jaText = `次の文章を英語に翻訳してください。\n\n【翻訳対象】\n${ja}\n\n【出力形式】\nMarkdown形式で出力してください。`;
    const doc = segment(jaText, '', tokenizerFor('o200k_base'));
    assert.ok(doc.blocks.some((b) => b.verbatim && b.sentences.some((s) => sentenceText(s).startsWith('本機の周囲'))));
    assert.ok(!doc.blocks.some((b) => b.verbatim && b.sentences.some((s) => sentenceText(s).startsWith('Markdown形式'))));
  });

  it('never rewords a text in a tag that names one (<notice>, <cover_letter>), nor a letter shown between two "---" lines', () => {
    // Before, both lost their greetings and sign-off at 100%: the material to translate or rewrite changed.
    const notice = '平素より ミナトワークス本町 をご利用いただき、誠にありがとうございます。\n2月15日（土）は終日閉館いたします。\nご不便をおかけしますが、何卒ご理解とご協力のほどよろしくお願い申し上げます。';
    const ja = `こんにちは。以下のお知らせを英語に翻訳してください。\n\n<notice>\n${notice}\n</notice>\n\n自然な英語にしてください。`;
    assert.ok(optimize({ text: ja, budget: '100%' }).text.includes(notice));
    const letter = 'Dear Ms Patel,\n\nThank you so much for your time. I am applying for the analyst role.\n\nKind regards,\nLena';
    for (const text of [
      `Please tighten my cover letter.\n\n<cover_letter>\n${letter}\n</cover_letter>\n\nKeep it under 200 words.`,
      `Hi! This is the letter I wrote:\n\n---\n${letter}\n---\n\nPlease tighten it and keep it under 200 words. Thanks so much!`,
    ]) assert.ok(optimize({ text, budget: '100%' }).text.includes(letter), text);
    // Rules in a tag named for them are the prompt's own, and their filler goes.
    assert.ok(!optimize({ text: `<data_handling_rules>\nBasically, never store card numbers.\n</data_handling_rules>\n\nAnswer the customer.`, budget: '100%' }).text.includes('Basically'));
  });

  it('raises typed errors naming the field', () => {
    assert.equal(code(catchError(() => optimize({ text: 42 as unknown as string }))), 'text_invalid:text');
    assert.equal(code(catchError(() => optimize({ text: 'x', budget: '150%' }))), 'budget_invalid:budget');
    assert.equal(code(catchError(() => optimize({ text: 'x', mode: 'fast' as 'strict' }))), 'mode_invalid:mode');
    assert.equal(code(catchError(() => optimize({ text: 'x', model: 'llama-3' }))), 'model_unsupported:model');
    assert.equal(code(catchError(() => optimize({ text: 'x', task: 7 as unknown as string }))), 'task_invalid:task');
  });

  it('keeps a clause of the best sentence when no sentence fits the budget whole', () => {
    const text = 'The museum opened in 1923 in a former railway station, which had closed after the war ended.';
    for (const mode of ['strict', 'relaxed'] as const) {
      const r = optimize({ text, budget: '70%', mode });
      assert.ok(r.optimizedTokens <= r.budgetTokens, `${mode}: ${r.text}`);
      assert.ok(r.text.startsWith('The museum opened in 1923'), `${mode}: ${r.text}`);
    }
  });

  it('cuts a run-on role prompt at its comma splices: the role and the duty it gives, not nothing', () => {
    const text =
      'I want you to act as a travel planner, I will tell you a city and my budget, you have to plan three days there with the sights worth seeing, the plan should list one museum per day, and think about what I might enjoy, and expand the plan accordingly with tips that make it useful.';
    const r = optimize({ text, budget: '50%', mode: 'strict' });
    assert.equal(r.text, 'Act as a travel planner, you have to plan three days there with the sights worth seeing.');
    assert.ok(r.optimizedTokens <= r.budgetTokens);
    // A clause that only goes on from the one before ("keep the list alphabetical": which list?) never stands alone.
    const leaning = optimize({ text: 'Register the route in `src/routes/orders/index.ts`; keep the list alphabetical and sorted by path.', budget: '50%', mode: 'strict' });
    assert.ok(!/^Keep the list/.test(leaning.text), leaning.text);
  });

  it('keeps a role without the clause that describes it when the whole sentence does not fit', () => {
    const text = 'Act as a Prompt Enhancer AI that takes user-input prompts and transforms them into more engaging, detailed, and thought-provoking questions.';
    const r = optimize({ text, budget: '40%', mode: 'strict' });
    assert.equal(r.text, 'Act as a Prompt Enhancer AI.');
    assert.equal(r.softLimitEnforced, false);
  });

  it('says so when no unit fits: strict returns nothing, flagged; relaxed keeps the sentence, flagged', () => {
    const text = 'In order to win the game, please play the strongest opening move.';
    const strict = optimize({ text, budget: '50%', mode: 'strict' });
    assert.equal(strict.text, '');
    assert.equal(strict.softLimitEnforced, true);
    // Over budget whatever it does, relaxed mode keeps the request as rewritten, without terse edits
    // that would not make it fit ("To win game, play strongest opening move.").
    const relaxed = optimize({ text, budget: '50%' });
    assert.equal(relaxed.text, 'To win the game, play the strongest opening move.');
    assert.equal(relaxed.softLimitEnforced, true);
  });

  it('relaxed mode never returns nothing: with several sentences and no room, the best one stays, flagged', () => {
    const text = 'Please could you kindly take a careful look at the following text and summarize it for me. It is very important that parseConfig() returns 42. In order to do this properly, you should consider every point.';
    const r = optimize({ text, budget: 1 });
    assert.ok(r.text.trim().length > 0, 'empty output');
    assert.equal(r.softLimitEnforced, true);
  });

  it('keeps a list with the sentence that announces it, in any language', () => {
    const text = 'お世話になっております。説明が長くてすみません。\n\n分類ラベルは次の3つだけです。\n\n- 残高照会：口座残高を知りたい\n- 振込：送金をしたい\n- その他：上記以外\n\n出力はラベル名のみで、説明は付けないでください。';
    for (let share = 20; share <= 100; share += 5) {
      const out = optimize({ text, budget: `${share}%`, mode: 'strict' }).text;
      const announced = out.includes('分類ラベルは次の3つだけです。');
      // The three labels are one set, and the sentence that announces them comes and goes with them.
      for (const label of ['残高照会', '振込', 'その他']) assert.equal(out.includes(label), announced, `${share}%: ${out}`);
    }
    assert.ok(optimize({ text, budget: '85%', mode: 'strict' }).text.includes('残高照会'));
  });

  it('keeps a retrieved document and its "[Doc N]" title together, never one without the other', () => {
    const text = [
      'Answer using only the documents below, and cite them as [Doc N].', '',
      '[Doc 1] Leave policy (2024)', 'Employees get 25 days of paid leave per year.', 'Unused days expire on 31 March.', '',
      '[Doc 2] Price list', '', '| Plan | Price |', '|---|---|', '| Basic | $10 |', '| Pro | $25 |', '',
      'Question: How many days of leave do I get?',
    ].join('\n');
    for (let share = 15; share <= 100; share += 5) {
      for (const mode of ['strict', 'relaxed'] as const) {
        const out = optimize({ text, budget: `${share}%`, mode }).text;
        const doc1 = /25 days|31 March/.test(out);
        assert.equal(out.includes('[Doc 1] Leave policy (2024)'), doc1, `${share}% ${mode}: ${out}`);
        assert.equal(out.includes('[Doc 2] Price list'), out.includes('| Basic | $10 |'), `${share}% ${mode}: ${out}`);
      }
    }
  });

  it('never returns empty text for a prompt that fits its budget: greetings and thanks alone come back as is', () => {
    for (const text of ['hi', 'Thanks!', 'Hello!', 'Thank you so much.', 'Good morning.', 'hi\n\nthanks', 'Cheers', 'Danke!', 'よろしくお願いいたします。']) {
      for (const mode of ['relaxed', 'strict'] as const) {
        const r = optimize({ text, budget: 1000, mode });
        assert.equal(r.text, text, `${JSON.stringify(text)} (${mode})`);
        assert.equal(r.softLimitEnforced, false);
        assert.equal(r.reductionPercent, 0);
      }
    }
  });

  it('never returns empty text for a prompt that fits its budget, whatever the passes remove ("Please.")', () => {
    for (const text of ['Please.', 'Please!', ' Kindly. ']) {
      const r = optimize({ text, budget: 1000 });
      assert.notEqual(r.text.trim(), '', JSON.stringify(text));
      assert.equal(r.optimizedTokens, countTokens(r.text));
    }
  });

  it('returns empty text for empty input', () => {
    const r = optimize({ text: '', budget: '50%' });
    assert.deepEqual([r.text, r.originalTokens, r.optimizedTokens, r.reductionPercent], ['', 0, 0, 0]);
  });

  it('keeps code in relaxed mode even over budget, and says so; instructions compete by value', () => {
    const text = 'Never change the API. Background: the service was written in 2019 by a small team over a long summer.\n\n```ts\nexport const answer = 42;\n```';
    const r = optimize({ text, budget: 5, mode: 'relaxed' });
    assert.ok(r.text.includes('```ts\nexport const answer = 42;\n```'));
    assert.ok(!r.text.includes('Background'), r.text);
    assert.ok(r.optimizedTokens > r.budgetTokens);
    assert.equal(r.softLimitEnforced, true);
    // With room for one sentence, the rule wins over the background.
    const roomy = optimize({ text, budget: 20, mode: 'relaxed' });
    assert.ok(roomy.text.startsWith('Never change the API.'), roomy.text);
    assert.ok(!roomy.text.includes('Background'), roomy.text);
  });

  it('relaxed mode shortens the prose by the ratio asked for, not to nothing, when the code alone is over budget', () => {
    const code = Array.from({ length: 14 }, (_, i) => `    total_${i} = compute_value(items[${i}], factor=${i + 2})`).join('\n');
    const text = `This helper is supposed to sum the values of a cart, but it returns wrong totals for discounted items. It must stay compatible with Python 3.8, and never add third-party libraries.\n\n\`\`\`python\ndef cart_total(items):\n${code}\n    return total_0\n\`\`\`\n\nCan you find the bug and show a fixed version?`;
    const r = optimize({ text, budget: '60%', mode: 'relaxed' });
    assert.ok(r.text.includes(code), 'the code stays');
    assert.equal(r.softLimitEnforced, true);
    assert.ok(r.text.includes('returns wrong totals for discounted items'), r.text);
    // Over budget by at most the protected content and the asked share of the rest.
    assert.ok(r.optimizedTokens < r.originalTokens, `${r.optimizedTokens}`);
  });

  it('relaxed mode reaches the budget: a long list of rules is cut to the most specific ones', () => {
    const rules = Array.from({ length: 30 }, (_, i) => `- Always check the value of field_${i} before you save the record.`).join('\n');
    const r = optimize({ text: `You are a careful reviewer.\n\n${rules}`, budget: '50%', mode: 'relaxed' });
    assert.ok(r.optimizedTokens <= r.budgetTokens, `${r.optimizedTokens} > ${r.budgetTokens}`);
    assert.equal(r.softLimitEnforced, false);
    assert.ok(r.text.startsWith("You're a careful reviewer."), r.text);
  });

  it('keeps what the prompt asks of its input before the input itself: "Turn this standup into …"', () => {
    const text = [
      'Hey, quick favour please! Turn this standup into three bullets max per person, and put blockers in a separate section at the top.',
      '',
      'Anya: yesterday finished the search index migration, took longer than expected because of the reindex on staging. no blockers.',
      'Ben: still on the flaky e2e test in checkout, it fails maybe one run in five. blocked until DevOps restores the test database.',
      'Chidi: reviewing PRs this morning, then pairing with Anya on the filters. Out Thursday and Friday.',
    ].join('\n');
    for (const budget of ['50%', '33%']) {
      const r = optimize({ text, budget, mode: 'strict' });
      assert.ok(r.text.includes('Turn this standup into three bullets max per person'), `${budget}: ${r.text}`);
    }
  });

  it('never keeps a sentence that leans on a dropped one, with a task too: "That\'s really important because …"', () => {
    const text = [
      'Classify each ticket into one queue.',
      '',
      '- BILLING — charges, refunds\n- DELIVERY — late or lost parcels\n- ACCOUNT — login problems, personal data',
      '',
      "If a ticket fits two queues, pick the one the customer needs first. Reply with the queue name in capitals and nothing else: no punctuation, no explanation. That's really important because a script reads your answer.",
      '',
      'Ticket: "{ticket_text}"',
    ].join('\n');
    for (let percent = 20; percent <= 90; percent += 5) {
      const r = optimize({ text, budget: `${percent}%`, mode: 'strict', task: 'Classify support tickets into queues.' });
      assert.ok(!r.text.includes('a script reads') || r.text.includes('Reply with the queue name'), `${percent}%: ${r.text}`);
    }
  });

  it('keeps "Then …" after a code block only with the rule before the block', () => {
    const text = [
      '## Failing tests',
      '',
      "If a test fails and you can't fix it within the file, don't delete the test. Mark it with `it.skip` and add a comment directly above it in exactly this form:",
      '',
      '```\n// TODO(vitest-migration): <one-line reason>\n```',
      '',
      "Then mention it in your summary. Don't skip whole `describe` blocks just because one test in them fails.",
      '',
      '## Checking',
      '',
      'Run `npm run typecheck` before you finish, and keep the number of errors at 31 or fewer.',
    ].join('\n');
    for (let percent = 15; percent <= 95; percent += 5) {
      const r = optimize({ text, budget: `${percent}%`, mode: 'strict' });
      assert.ok(!r.text.includes('Then mention') || r.text.includes('delete the test'), `${percent}%: ${r.text}`);
    }
  });

  describe('a rule repeated in each section', () => {
    const steps = ['Create the folder `out/` in the workspace root.', 'Run `npm run build` and fix every error it reports.', 'Write a summary of the changes to `out/summary.md`.'];
    const rule = 'Work silently until the phase is complete, and never ask for confirmation.';
    const text = ['# Phase 1: Setup', '# Phase 2: Build', '# Phase 3: Report'].map((h, i) => `${h}\n\n- ${steps[i]}\n- ${rule}`).join('\n\n');
    const copies = (out: string) => out.split(rule).length - 1;

    it('stays in every section where the prompt fits: it is each section\'s rule, not a repeat', () => {
      for (const mode of ['relaxed', 'strict'] as const) assert.equal(copies(optimize({ text, budget: '100%', mode }).text), 3, mode);
    });

    it('is kept again only where no step of another section goes for it', () => {
      for (let percent = 30; percent <= 95; percent += 5) {
        const r = optimize({ text, budget: `${percent}%`, mode: 'strict' });
        const kept = steps.filter((s) => r.text.includes(s)).length;
        assert.ok(copies(r.text) <= Math.max(1, kept), `${percent}%: ${copies(r.text)} copies, ${kept} steps in:\n${r.text}`);
      }
    });
  });

  it('keeps "Below is the table …" only with the table it shows, and never pulls the table in for it', () => {
    const rows = Array.from({ length: 8 }, (_, i) => `| Region ${i + 1} | ${1000 + i * 37} | ${1100 + i * 41} |`).join('\n');
    const text = `Write two sentences of commentary for the sales slide.\n\nBelow is the table our finance team sent for Q2 2024. All amounts are in thousands of euros.\n\n| Region | Q2 2023 | Q2 2024 |\n|---|---:|---:|\n${rows}\n\nCompare each region with last year and name the largest gap.`;
    for (let percent = 15; percent <= 95; percent += 5) {
      const r = optimize({ text, budget: `${percent}%`, mode: 'strict' });
      assert.ok(!r.text.includes('Below is the table') || r.text.includes('| Region |'), `${percent}%: ${r.text}`);
    }
  });

  it('keeps the role and the final input when both fit, though the input says "this match" as the sentence before does', () => {
    const text = 'I want you to act as a football commentator. I will give you descriptions of football matches in progress and you will commentate on the match, providing your analysis on what has happened thus far. You should be knowledgeable of football terminology, tactics and the players involved in each match. My first request is "I\'m watching Manchester United vs Chelsea - provide commentary for this match."';
    const r = optimize({ text, budget: '35%', mode: 'strict' });
    assert.ok(r.text.includes('Manchester United vs Chelsea'), r.text);
    assert.ok(r.text.startsWith("Act as a football commentator."), r.text);
  });

  it('fills room a long sentence does not fit into with its clause that says something specific', () => {
    const text = 'You are a careful reviewer of retry code. This decorator is supposed to retry a function up to max_attempts times with exponential backoff, and it should only retry on ConnectionError and TimeoutError, but in production it sometimes keeps retrying forever and also seems to swallow Ctrl+C. Can you point out the bugs and show a fixed version?';
    const r = optimize({ text, budget: '50%', mode: 'strict' });
    assert.ok(r.optimizedTokens <= r.budgetTokens);
    assert.ok(r.text.includes('It should only retry on ConnectionError and TimeoutError.'), r.text);
    assert.ok(r.text.endsWith('Can you point out the bugs and show a fixed version?'), r.text);
  });

  it('takes the clause of a role prompt\'s task into room left, never a rule without its restricting tail', () => {
    const commentator = 'I want you to act as a football commentator. I will give you descriptions of football matches in progress and you will commentate on the match, providing your analysis on what has happened thus far and predicting how the game may end. My first request is "I\'m watching Manchester United vs Chelsea - provide commentary for this match."';
    const r = optimize({ text: commentator, budget: '70%', mode: 'relaxed' });
    assert.ok(r.text.includes("I'll give you descriptions of football matches in progress and you'll commentate on the match."), r.text);
    const girl = 'I want you to pretend to be a 20 year old aerospace engineer working at SpaceX. You are intelligent, interested in space exploration, hiking and technology. I want you to reply with the answer inside one unique code block, and nothing else. Do not write explanations. The first message is "Hey, how are you?"';
    for (let percent = 20; percent <= 90; percent += 10) {
      const out = optimize({ text: girl, budget: `${percent}%`, mode: 'strict' }).text;
      assert.ok(!out.includes('one unique code block.'), `${percent}%: ${out}`);
    }
  });

  it('never takes a clause whose contrasting instruction or first clause it needs ("but use them when necessary", "keep the list")', () => {
    const text = 'I want you to act as an IT Expert. Try to avoid too many technical details, but use them when necessary. Register the route in `src/routes/index.ts`; keep the list alphabetical. My first problem is "my laptop gets an error with a blue screen."';
    for (let percent = 30; percent <= 90; percent += 10) {
      const out = optimize({ text, budget: `${percent}%`, mode: 'strict' }).text;
      assert.ok(!out.includes('technical details.'), `${percent}%: ${out}`);
      assert.ok(!/(?:^|\. )Keep the list alphabetical/.test(out), `${percent}%: ${out}`);
    }
  });

  it('closes a tag section in an unclosed fence where its closing tag stands: the pair is kept or dropped together', () => {
    const text = [
      '<instructions>',
      'You are a code reviewer for the payments team. Review every diff for security problems first.',
      'Never approve a change that logs card numbers. Always ask for tests when logic changes.',
      '```python',
      'def charge(card, amount):',
      '    log.info(card)',
      '</instructions>',
      '',
      'Here is some more text about the review process that is long enough to be dropped at small budgets, with many words.',
      'Please answer in English.',
    ].join('\n');
    for (const budget of ['75%', '50%', '35%', '25%'])
      for (const mode of ['strict', 'relaxed'] as const) {
        const out = optimize({ text, budget, mode }).text;
        assert.equal(out.includes('<instructions>'), out.includes('</instructions>'), `${mode} ${budget}: one tag of the pair\n${out}`);
      }
  });

  it('drops an opening tag whose closing tag is inside code once nothing after it is kept, never leaving it alone', () => {
    const text = [
      '---', 'description: rules for DAX measures', '---', '<rules>', '```dax', '// Working with multiple calendars and time-related calculations',
      "Total Quantity = SUM ( 'Sales'[Order Quantity] )", '</rules>', '    # Expects the page to have a heading named Installation.', '```',
    ].join('\n');
    for (const budget of ['60%', '40%', '30%']) {
      const out = optimize({ text, budget, mode: 'strict' }).text;
      if (out.includes('<rules>')) assert.ok(out.includes('```dax'), `${budget}: <rules> over nothing\n${out}`);
    }
  });

  it('drops a heading whose section the safe passes emptied (a greeting alone under it), at any budget', () => {
    const text = [
      'MANDATORY: These rules apply to every request and across all workflow phases.', '',
      '#### Advanced variable usage', '',
      'お疲れ様です。いつもお世話になっております。急ぎの案件で恐縮ですが、翻訳をお願いできればと思いご連絡しました。', '',
      '## Output', '', 'Answer in English, in at most three sentences.',
    ].join('\n');
    for (const budget of ['100%', '80%', '60%'])
      for (const mode of ['strict', 'relaxed'] as const) {
        const out = optimize({ text, budget, mode }).text;
        assert.ok(!out.includes('#### Advanced variable usage'), `${mode} ${budget}: a heading over nothing\n${out}`);
        assert.ok(out.includes('## Output\n\nAnswer in English'), `${mode} ${budget}\n${out}`);
      }
  });

  it('meets a strict budget by dropping the code block whole, and says so', () => {
    const text = 'Never change the API.\n\n```ts\nexport const answer = 42;\n```';
    const r = optimize({ text, budget: 6, mode: 'strict' });
    assert.ok(r.optimizedTokens <= 6);
    assert.ok(!r.text.includes('```'));
    assert.equal(r.softLimitEnforced, true);
  });

  it('prefers what the task asks about', () => {
    const text = 'The office opens at 9 am. Parking is free for visitors. The cafeteria serves lunch until 2 pm. The wifi password is on the badge.';
    const r = optimize({ text, budget: 12, mode: 'strict', task: 'Where do I find the wifi password?' });
    assert.match(r.text, /wifi password/i);
  });

  for (const [language, text] of [
    ['German', 'Bitte lesen Sie den folgenden Text sorgfältig durch. Der Bericht beschreibt die Ergebnisse des Projekts im Jahr 2023. Die Kosten lagen bei 15.000 Euro. Das Team bestand aus fünf Personen. Wir bitten um eine kurze Zusammenfassung auf Deutsch. Danke für Ihre Hilfe.'],
    ['Spanish', 'Por favor, lea el siguiente texto con atención. El informe describe los resultados del proyecto en el año 2023. El costo fue de 15.000 euros. El equipo estaba formado por cinco personas. Pedimos un resumen breve en español. Gracias por su ayuda.'],
  ]) {
    it(`shortens ${language} prompts without garbling them`, () => {
      const r = optimize({ text: text!, budget: '60%' });
      assert.ok(r.optimizedTokens < r.originalTokens && r.optimizedTokens <= r.budgetTokens);
      // Every kept sentence is an original sentence, word for word but for the polite "Bitte" / "Por favor,".
      const written = text!.replace(/(?:Bitte|Por favor,) (\p{L})/gu, (_, letter: string) => letter.toUpperCase());
      for (const sentence of r.text.split(/(?<=\.)\s+/)) assert.ok(written.includes(sentence), sentence);
    });
  }

  it('uses the encoding of the chosen model', () => {
    const text = 'Tokens differ between encodings: ½ ∑ ∫ “quotes” 🤖.';
    assert.equal(optimize({ text, model: 'gpt-4' }).originalTokens, countTokens(text, 'gpt-4'));
    assert.notEqual(countTokens(text, 'gpt-4'), countTokens(text, 'gpt-4o'));
  });

  // Golden examples: expected outputs written and checked by hand.
  const golden: [string, string][] = [
    [
      'I want you to act as a Linux terminal. I would really appreciate it if you could reply with what the terminal should show.\n\n\n\nDo not write explanations.',
      "Act as a Linux terminal. Reply with what the terminal should show.\n\nDon't write explanations.",
    ],
    [
      '## Task\n\nIn order to help, summarize   the report. Summarize the report.\n\n- Use at most 3 bullet points.\n- Keep {{name}} as is.',
      '## Task\n\nTo help, summarize the report. Summarize the report.\n\n- Use at most 3 bullet points.\n- Keep {{name}} as is.',
    ],
  ];
  for (const [input, expected] of golden) {
    it(`golden: ${JSON.stringify(input.slice(0, 40))}…`, () => assert.equal(optimize({ text: input }).text, expected));
  }
});

function catchError(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  return undefined;
}
