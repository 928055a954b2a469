import { strict as assert } from 'node:assert';
import { isEnglish } from '../../../src/core/text/language';

describe('core/text/language', () => {
  const english = [
    // A terse agent file: headings, bullets, code; few function words, none of another language.
    '# Janitor\n\n## Scope\n- Dead code: remove unused exports\n- `npm run lint` must pass\n- Deps: prune unused packages\n\n```bash\nnpx knip --production\n```\n\nReturn a summary.',
    'Do not wait.',
    'Please, write a poem.',
    'The museum opened in 1923 in a former railway station.',
  ];
  for (const text of english) it(`reads ${JSON.stringify(text.slice(0, 40))} as English`, () => assert.ok(isEnglish(text)));

  const other = [
    'Oi, tudo bem? Resuma a ata. Qualquer dúvida é só falar.',
    'Fasse das Protokoll zusammen und antworte nur auf Deutsch.',
    'Résume le compte rendu de la réunion en trois points.',
    // Chinese with English identifiers and code.
    '请帮我写一个 SQL：按 order_id 和 paid_at 统计 GMV，只看 status = "paid" 的订单。`SELECT * FROM orders`',
  ];
  for (const text of other) it(`reads ${JSON.stringify(text.slice(0, 40))} as not English`, () => assert.ok(!isEnglish(text)));
});
