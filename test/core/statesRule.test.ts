import * as assert from 'node:assert/strict';
import { statesRule } from '../../src/core';

describe('core statesRule (what the extension marks as a dropped rule)', () => {
  for (const rule of ['Never share internal ticket numbers with customers.', 'Answer only if you are sure.', 'Use at most 3 bullet points.', 'Antworte nie auf Englisch.',
    'If needed, ask a question, and if the user is rude, end the chat.', 'If possible, never use web searches.',
    // Chinese and Japanese limits and prohibitions beyond 不要/禁止: "overselling is not allowed", "at most 20
    // SKUs per order", "up to 6 people per booking", "reply within 3 days".
    '不允许超卖，这是硬性要求。', '一个订单最多 20 个 SKU。', '1回の予約で取れるのは最大6名までです。', '3日以内に返信してください。',
    // Limits in German, Spanish, French and Portuguese: "at most", "at least".
    'Eine Sitzung dauert maximal 45 Minuten.', 'Responde como máximo en tres frases.', 'Réponds en trois phrases au plus.', 'Responda com no máximo 100 palavras.',
    // A number with a word that bounds it.
    'Keep each answer under 120 words.', 'Reply within 24 hours.', 'Antworte in weniger als 50 Wörtern.', 'Réponds en moins de 100 mots.']) {
    it(`a rule: ${rule}`, () => assert.equal(statesRule(rule), true));
  }
  // "If possible" hedges; it sets no condition.
  for (const other of ['The weather in the office is usually pleasant.', "Thanks, I'm not sure this is clear.", 'Summarize the report.', 'If possible, you may use web searches to find the paper.',
    '我们的下单服务用的是 Spring Boot 2.7。', 'お世話になっております。', '以下の内容でお願いします。', 'The stadium holds 70,000 people.', 'The office is 200 meters from the station.']) {
    it(`no rule: ${other}`, () => assert.equal(statesRule(other), false));
  }
});
