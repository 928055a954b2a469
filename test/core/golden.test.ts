import { strict as assert } from 'node:assert';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { optimize } from '../../src/core';

// Golden outputs: seven prompts of the kinds users bring (rules, XML sections, few-shot, an agent file with
// front matter, Japanese, a Spanish role prompt, a question over retrieved documents) at 100%, 50% and 25% in strict mode. Each expected file was read by a person
// before it was committed; `UPDATE_GOLDEN=1 npx mocha test/core/golden.test.ts` rewrites them for review.
const DIR = join(__dirname, 'golden');
const BUDGETS = ['100%', '50%', '25%'] as const;
const inputs = readdirSync(DIR).filter((f) => f.endsWith('.md'));
const run = (name: string, budget: string) => optimize({ text: readFileSync(join(DIR, name), 'utf8'), budget, mode: 'strict' });

describe('core golden outputs', () => {
  for (const name of inputs) {
    for (const budget of BUDGETS) {
      it(`${name} at ${budget}`, () => {
        const out = run(name, budget);
        const file = join(DIR, `${name.replace(/\.md$/, '')}.${budget.replace('%', '')}.txt`);
        if (process.env.UPDATE_GOLDEN) writeFileSync(file, out.text);
        assert.equal(out.text, readFileSync(file, 'utf8'));
        assert.ok(out.optimizedTokens <= out.budgetTokens);
      });
    }
  }

  // What reading them showed, as rules that hold at every budget.
  it('keeps every kept rule word for word: no rule loses its limit or negation', () => {
    for (const budget of BUDGETS) {
      const text = run('system-rules.md', budget).text;
      if (text.includes('refunds')) assert.match(text, /Don't promise refunds above \$250 without escalating to a supervisor\./);
      if (text.includes('E-4021')) assert.match(text, /update the desktop client to version 3\.14\.2 or later\./);
      assert.doesNotMatch(text, /Hello!|Thank you so much/);
    }
  });

  it('keeps a Spanish role prompt\'s role and first request at every budget, without its courtesy', () => {
    for (const budget of BUDGETS) {
      const text = run('role-es.md', budget).text;
      assert.ok(text.startsWith('Quiero que actúes como un guía turístico local en Sevilla.'), `${budget}: ${text}`);
      assert.ok(text.endsWith('Mi primera solicitud es "Estoy en la Plaza de España y quiero visitar solo museos."'), `${budget}: ${text}`);
      assert.doesNotMatch(text, /¡Hola!|por favor|Mil gracias|me explico/);
    }
  });

  it('keeps a RAG prompt\'s question at every budget, and with it the document that answers it when one fits', () => {
    for (const budget of BUDGETS) {
      const text = run('rag-documents.md', budget).text;
      assert.ok(text.startsWith('Based only on the three support articles below, tell me whether a customer on the Team plan'), `${budget}: ${text}`);
      assert.doesNotMatch(text, /Thanks|Hi!/);
      if (budget !== '25%') assert.match(text, /A deleted file stays in the Trash for 30 days on Free and Team/, budget);
    }
  });

  it('keeps tag pairs, the question, front matter, the final input and whole examples at every budget', () => {
    for (const budget of BUDGETS) {
      const xml = run('xml-sections.md', budget).text;
      for (const tag of ['role', 'instructions', 'document', 'output_format', 'question']) {
        assert.equal((xml.match(new RegExp(`<${tag}[ >]`, 'g')) ?? []).length, (xml.match(new RegExp(`</${tag}>`, 'g')) ?? []).length, `${tag} at ${budget}`);
      }
      assert.match(xml, /<question>\nWhich clauses should the tenant negotiate first\?\n<\/question>/);
      const agent = run('agent-file.md', budget).text;
      assert.ok(agent.startsWith("---\ndescription: 'Reviews TypeScript pull requests for the billing service'\napplyTo: 'services/billing/**/*.ts'\n---\n"), budget);
      const fewShot = run('few-shot.md', budget).text;
      assert.ok(fewShot.endsWith('Now classify this one:\n\nTicket: "{ticket_text}"\nQueue:'), budget);
      for (const queue of ['BILLING', 'DELIVERY', 'ACCOUNT', 'OTHER']) {
        const answer = `Queue: ${queue}`;
        if (fewShot.includes(answer)) assert.match(fewShot, new RegExp(`Ticket: "[^"\\n]+"\\n${answer}`), `${queue} at ${budget}`);
      }
      assert.doesNotMatch(run('japanese.md', budget).text, /。 /);
    }
  });
});
