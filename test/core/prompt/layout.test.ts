import { strict as assert } from 'node:assert';
import { promptRanges, type PromptRange } from '../../../src/core/prompt/layout';
import { frontMatterEnd } from '../../../src/core/prompt/frontmatter';
import { optimize } from '../../../src/core';

/** Each range as "kind[flags]: text", for readable expectations. */
const shape = (text: string): string[] =>
  promptRanges(text).map((r: PromptRange) => `${r.kind}${r.tag ? `<${r.tag.closing ? '/' : ''}${r.tag.name}>` : ''}${r.pinned ? '📌' : ''}: ${text.slice(r.start, r.end)}`);

describe('core/prompt/layout', () => {
  it('finds YAML and TOML front matter, byte for byte, and nothing else', () => {
    const yaml = '---\ndescription: Rules\nglobs: "**/*.ts"\n---\n# Title\n';
    assert.equal(yaml.slice(0, frontMatterEnd(yaml)), '---\ndescription: Rules\nglobs: "**/*.ts"\n---');
    const toml = '+++\ntitle = "x"\n+++\nBody.';
    assert.equal(toml.slice(0, frontMatterEnd(toml)), '+++\ntitle = "x"\n+++');
    assert.equal(frontMatterEnd('Text first.\n---\na: b\n---\n'), 0);
    assert.equal(frontMatterEnd('---\nnever closed\n'), 0);
    assert.equal(frontMatterEnd('---\r\na: b\r\n---\r\nBody'), '---\r\na: b\r\n---'.length);
    assert.deepEqual(shape(yaml)[0], 'frontmatter: ---\ndescription: Rules\nglobs: "**/*.ts"\n---');
  });

  it('splits a tag off the edges of a prose line when its partner is in the prompt', () => {
    assert.deepEqual(shape('<question>Is 11 prime?</question>'), ['markup<question>: <question>', 'prose📌: Is 11 prime?', 'markup</question>: </question>']);
    assert.deepEqual(shape('<document index="1">First line.\nLast line.</document>'), [
      'markup<document>: <document index="1">', 'prose📌: First line.\nLast line.', 'markup</document>: </document>',
    ]);
    // Lines that tags wrap one by one are one section each: a step's tags go with its own sentences.
    assert.deepEqual(shape('<step n="1">Read all documents. Do not stop early.</step>\n<step n="2">Quote them.</step>\nThen answer.'), [
      'markup<step>: <step n="1">', 'prose: Read all documents. Do not stop early.', 'markup</step>: </step>',
      'markup<step>: <step n="2">', 'prose: Quote them.', 'markup</step>: </step>', 'prose: Then answer.',
    ]);
    // A placeholder with no partner, and <keep> spans, stay in their sentence.
    assert.deepEqual(shape('<name> is the user.'), ['prose: <name> is the user.']);
    assert.deepEqual(shape('<keep>exact</keep> and more.'), ['prose: <keep>exact</keep> and more.']);
  });

  it('makes each few-shot example one unit: Q/A, Input/Output, User/Assistant, "Example N", <example>', () => {
    const text = 'Classify the sentiment.\n\nInput: I loved it.\nOutput: positive\n\nInput: Awful service.\nOutput: negative\n\nInput: {{review}}';
    assert.deepEqual(shape(text), [
      'prose: Classify the sentiment.',
      'example: Input: I loved it.\nOutput: positive',
      'example: Input: Awful service.\nOutput: negative',
      'prose📌: Input: {{review}}',
    ]);
    assert.deepEqual(shape('User: Hi\nAssistant: Hello!\nUser: Bye\nAssistant: See you.'), ['example: User: Hi\nAssistant: Hello!', 'example: User: Bye\nAssistant: See you.']);
    assert.deepEqual(shape('Example 1: 2+2 → 4\nExample 2: 3+3 → 6\n\nNow solve 4+4.'), ['example: Example 1: 2+2 → 4', 'example: Example 2: 3+3 → 6', 'prose: Now solve 4+4.']);
    assert.deepEqual(shape('<example>\nQ: 7?\nA: prime\n</example>'), ['markup<example>: <example>', 'example: Q: 7?\nA: prime', 'markup</example>: </example>']);
    // The tag in the prompt's language: <exemplo>, <ejemplo>, <beispiel>, <exemple>.
    assert.deepEqual(shape('<exemplo>\nAssunto: Chegou o café ☕\nCorpo: Oi, {{primeiro_nome}}! Depois de meses...\n</exemplo>'), [
      'markup<exemplo>: <exemplo>', 'example: Assunto: Chegou o café ☕\nCorpo: Oi, {{primeiro_nome}}! Depois de meses...', 'markup</exemplo>: </exemplo>',
    ]);
    // An answer over two paragraphs stays with its question; a code block inside an example joins it.
    assert.deepEqual(shape('Q: Show code.\nA: Here:\n\n```js\nx()\n```\n\nQ: Next?\nA: Done.'), ['example: Q: Show code.\nA: Here:\n\n```js\nx()\n```', 'example: Q: Next?\nA: Done.']);
    // "Example." and "Second example." over an input, with the answer's block after it.
    assert.deepEqual(shape('Example. Issue #1, "crash on launch".\n\n```yaml\ntype: bug\n```\n\nSecond example. Issue #2, "same crash".\n\n```yaml\ntype: duplicate\n```\n\nClassify the new issue.'), [
      'example: Example. Issue #1, "crash on launch".\n\n```yaml\ntype: bug\n```', 'example: Second example. Issue #2, "same crash".\n\n```yaml\ntype: duplicate\n```', 'prose: Classify the new issue.',
    ]);
  });

  it('keeps the list an answer goes on with on the next lines in its example ("Assistant: - Sam | …", "- UNASSIGNED | …")', () => {
    const text = 'User: notes: sam fixes the login bug by friday; someone updates the docs\nAssistant: - Sam | Fix the login bug | 2024-03-15\n- UNASSIGNED | Update the docs | no date\n\nUser: notes: nothing decided\nAssistant: No action items.\n\nUser: notes: ana owns the release notes\nAssistant:';
    // Before, "- UNASSIGNED | …" was a list item of its own: at 50% it stayed without the example it answers.
    assert.deepEqual(shape(text).slice(0, 2), [
      'example: User: notes: sam fixes the login bug by friday; someone updates the docs\nAssistant: - Sam | Fix the login bug | 2024-03-15\n- UNASSIGNED | Update the docs | no date',
      'example: User: notes: nothing decided\nAssistant: No action items.',
    ]);
    // A list after an example's header and its code, one item a line, is no answer: the items are rules again.
    const rules = 'Example:\n```python\nchat.invoke(messages)\n```\n\n- Compose messages as a list.\n- For RAG, combine chat models with retrievers.\n- Use `streaming=True` for streaming.';
    assert.deepEqual(shape(rules).slice(-2), ['prose: - For RAG, combine chat models with retrievers.', 'prose: - Use `streaming=True` for streaming.']);
  });

  it('takes labelled lines with an arrow as examples, and an arrow with nothing after it as the final input', () => {
    const text = '例：\n発話：「給料は入りましたか？」→ 残高照会\n発話：「3万円送りたい」→ 振込\n\n発話：「{utterance}」→';
    assert.deepEqual(shape(text), ['prose: 例：', 'example: 発話：「給料は入りましたか？」→ 残高照会', 'example: 発話：「3万円送りたい」→ 振込', 'prose📌: 発話：「{utterance}」→']);
  });

  it('takes an "Example:" whose answer is left empty at the end for the final input, not for one more example', () => {
    const text = 'Exemplo: "perdi meu cartão"\nResposta: BLOQUEIO\n\nExemplo: "qual é o meu limite?"\nResposta: LIMITE\n\nAgora classifique:\n\nExemplo: "me passa pra um atendente agora"\nResposta:';
    // Before, the last one was an example like the others: dropped whole at 50%, nothing left to classify.
    assert.deepEqual(shape(text).slice(-2), ['prose: Agora classifique:', 'prose📌: Exemplo: "me passa pra um atendente agora"\nResposta:']);
    assert.equal(shape(text).filter((line) => line.startsWith('example')).length, 2);
    // "Texto:" asks as "Text:" does: the last one, its "Saída:" empty, is the note to extract from.
    const answer = (n: string, date: string) => `{"cnpj_emitente": "12.345.678/0001-90", "numero_nota": "${n}", "data_emissao": "${date}", "valor_total": 9184.00, "vencimento": "2024-04-11"}`;
    const notes = `Exemplo 1\nTexto: "NF-e 004512 de 12/03/2024, total R$ 9.184,00."\nSaída: ${answer('004512', '2024-03-12')}\n\nExemplo 2\nTexto: "Nota 78.331, total R$ 15.730,50."\nSaída: ${answer('78.331', '2024-04-05')}\n\nAgora a nota nova:\n\nTexto: "NF-e 000913, total R$ 3.622,50."\nSaída:`;
    assert.deepEqual(shape(notes).slice(-1), ['prose📌: Texto: "NF-e 000913, total R$ 3.622,50."\nSaída:']);
  });

  it('takes a question answered on its own line ("Q: … A: …", "问：…？答：…") for an example, not for the final input', () => {
    // Before, an FAQ of such lines was pinned as the final input: relaxed mode kept it whatever the budget.
    assert.deepEqual(shape('Answer questions about our store.\n\nFAQ:\n- Q: Do you ship abroad? A: Only to the EU and the UK.\n- Q: Can I return sale items? A: Yes, within 14 days.\n\nBe brief.'), [
      'prose: Answer questions about our store.',
      'prose: FAQ:',
      'example: - Q: Do you ship abroad? A: Only to the EU and the UK.',
      'example: - Q: Can I return sale items? A: Yes, within 14 days.',
      'prose: Be brief.',
    ]);
    assert.deepEqual(shape('常见问题：\n- 问：发票怎么开？答：下单时在备注里填写抬头和税号。\n- 问：沙发可以上门安装吗？答：上海免费上门安装。'), [
      'prose: 常见问题：',
      'example: - 问：发票怎么开？答：下单时在备注里填写抬头和税号。',
      'example: - 问：沙发可以上门安装吗？答：上海免费上门安装。',
    ]);
    // "R :" answers "Q :" in a French FAQ. Before, its answers went apart from their questions at 50%.
    assert.deepEqual(shape('FAQ :\n\nQ : Quel est le délai de remboursement ?\nR : Sous 5 jours ouvrés.\n\nQ : Les lunettes sont-elles prises en charge ?\nR : Oui, à hauteur de 150 € tous les deux ans.').filter((x) => x.startsWith('example')).length, 2);
    // Still the final input: the question whose answer is left for the model.
    assert.ok(shape('Q: What is 2+2? A: 4\n\nQ: What is 3+3? A:').at(-1)!.startsWith('prose📌: Q: What is 3+3?'));
  });

  it('pins the member\'s message the prompt closes on ("Member: …"), as it does a customer\'s', () => {
    // Before, at 50% the message went with the request that introduces it: the prompt asked nothing.
    const text = 'You are Juno, the support assistant of Brightline Fitness.\n\nNow answer the following member message:\n\nMember: Hi, I\'m moving to Groningen in September. Can I cancel my annual plan early?';
    assert.ok(shape(text).at(-1)!.startsWith('prose📌: Member: Hi'), shape(text).join('\n'));
  });

  it('pins a question labelled by whose it is ("Frage der Mitarbeiterin (…):"), and not the thanks after it', () => {
    // Before, the German label was no question label: relaxed mode at 50% dropped the question the prompt is for.
    const de = 'Beantworte die Frage am Ende nur auf Grundlage der Dokumente.\n\n[Dokument A – VPN-Richtlinie]\nPrivate Geräte dürfen nicht verwendet werden.\n\n' +
      'Frage der Mitarbeiterin (Frau Oztürk, Abteilung Netzbetrieb):\n„Ich fliege übermorgen nach Kanada. Geht das, und was muss ich tun?"';
    assert.ok(shape(de).at(-1)!.startsWith('prose📌: Frage der Mitarbeiterin'), shape(de).join('\n'));
    const fr = 'Répondez à partir des documents.\n\nQuestion du client :\n« Mon canapé est fichu. Est-ce que je suis couvert ? »\n\nMerci beaucoup d\'avance pour votre aide !';
    assert.deepEqual(shape(fr).slice(-2), ['prose📌: Question du client :\n« Mon canapé est fichu. Est-ce que je suis couvert ? »', "prose: Merci beaucoup d'avance pour votre aide !"]);
  });

  it('learns the labels of Japanese examples and pins the unanswered one at the end as the final input', () => {
    // Without spaces a review counted as one word, too short for an input: the final review was prose and went at 50%.
    const example = (review: string, category: string) => `レビュー：${review}\nカテゴリ：${category}`;
    const text = [
      'お客様レビューを次のカテゴリのどれか1つに分類してください：商品品質、配送、価格、その他。',
      example('届いた冷蔵庫の扉にへこみがありました。箱は綺麗だったので、工場の段階だと思います。', '商品品質'),
      example('注文から10日たってやっと届きました。追跡番号もずっと更新されませんでした。', '配送'),
      example('他店より5,000円も安く、ポイントも10%ついたので大満足です！', '価格'),
      'カテゴリ名だけを1行で出力してください。',
      example('洗濯機は静かで気に入っていますが、設置に来た業者さんが床に傷をつけて帰っていきました。', ''),
    ].join('\n\n');
    const shapes = shape(text);
    assert.equal(shapes.filter((s) => s.startsWith('example:')).length, 3, shapes.join('\n'));
    assert.ok(shapes.at(-1)!.startsWith('prose📌: レビュー：洗濯機'), shapes.join('\n'));
  });

  it('takes no turn of a transcript, no field of a record and no rule with an arrow for an example', () => {
    const transcript =
      'Transcript:\n\nIines: We have seven clinics now and the booking tool is slow every Monday morning.\n\nMe: What is the main frustration?\n\n' +
      'Iines: Cancellations. We lose about four slots a day per clinic.\n\nMe: And what would help?\n\nIines: An automatic waitlist that fills the slot.\n\nMe: That is really helpful.';
    const record = 'ID: HR-112\nTitle: Parental Leave Policy\nEffective: 2024-01-01\n\nParents get 16 weeks.\n\nID: HR-140\nTitle: Working from Abroad\nEffective: 2024-03-01\n\nUp to 30 days a year.';
    const rules = '- Execution: workspace tasks → scripts → raw CLI.\n- Regression risk: after all checks, assign an overall risk score. If HIGH → flag blocking.';
    for (const text of [transcript, record, rules]) assert.ok(!shape(text).some((line) => line.startsWith('example')), shape(text).join('\n'));
    // Examples still are: "Ticket: … / Queue: …" pairs with a label's value for an answer.
    const fewShot = 'Ticket: "I was charged twice for the same order."\nQueue: BILLING\n\nTicket: "The app closes when I tap on my cart."\nQueue: TECH\n\nTicket: "Where is my parcel?"\nQueue: SHIPPING';
    assert.equal(shape(fewShot).filter((line) => line.startsWith('example')).length, 3);
  });

  it('cuts a paragraph around an example that starts inside it', () => {
    assert.deepEqual(shape('Here is one example:\nQ: 2+2?\nA: 4\nAnswer the same way.'), ['prose: Here is one example:', 'example: Q: 2+2?\nA: 4\nAnswer the same way.']);
  });

  it('pins the last question-like tag section as the final input', () => {
    const text = '<instructions>\nBe brief.\n</instructions>\n<document>\nA long text.\n</document>\n<question>\nWhat is it?\n</question>';
    const pinned = shape(text).filter((r) => r.includes('📌'));
    assert.deepEqual(pinned, ['prose📌: What is it?']);
  });

  it('makes each paragraph of an examples section one example when its lines are whole units', () => {
    const text = [
      '## Examples', '',
      'Review id r-101: "Zip broke after two weeks."', '{"id": "r-101", "label": "OK"}', '',
      'Review id r-102: "Call the courier on 07700 900456."', '{"id": "r-102", "label": "PERSONAL_DATA"}', '',
      '## Output format', '',
      'One line of JSON per review.\nNothing else.',
    ].join('\n');
    assert.deepEqual(shape(text), [
      'heading: ## Examples',
      'example: Review id r-101: "Zip broke after two weeks."\n{"id": "r-101", "label": "OK"}',
      'example: Review id r-102: "Call the courier on 07700 900456."\n{"id": "r-102", "label": "PERSONAL_DATA"}',
      'heading: ## Output format',
      'prose: One line of JSON per review.\nNothing else.',
    ]);
    // Hard-wrapped prose under an examples heading stays prose: its lines end mid-sentence.
    const wrapped = '## Examples\n\nThe examples below show how a reviewer\nlabels reviews that mention a courier.';
    assert.deepEqual(shape(wrapped), ['heading: ## Examples', 'prose: The examples below show how a reviewer\nlabels reviews that mention a courier.']);
    // German quotes („Umzug melden“) close: the turn is whole. Before, it read as an open quotation and the
    // example was prose, which lost "Lina: Vielen Dank für Ihre Nachricht." at 100%.
    const de = '# Beispiel\n\nKunde: Ich ziehe am 1. März um, was muss ich tun?\nLina: Vielen Dank für Ihre Nachricht. Bitte nutzen Sie „Umzug melden“ im Portal.';
    assert.deepEqual(shape(de), ['heading: # Beispiel', `example: ${de.slice(de.indexOf('Kunde'))}`]);
    assert.ok(optimize({ text: `Du bist Lina, die Assistentin der Stadtwerke.\n\n${de}`, budget: '100%' }).text.includes(de));
  });

  it('pins a trailing labelled question whose label says where it comes from ("Question (from a developer …):")', () => {
    const text = [
      'Answer using only the documents below.', '',
      '<document title="Rate limits">\nThe API allows 600 requests per minute.\n</document>', '',
      'Question (from a developer who, according to the ticket, is still on the v1 SDK): "How long should I wait after a 429?"', '',
      'Thanks a lot for looking at this!',
    ].join('\n');
    const pinned = shape(text).filter((r) => r.includes('📌'));
    // Before, the last <document> was taken for the final input and the question competed like any sentence.
    assert.deepEqual(pinned, ['prose📌: Question (from a developer who, according to the ticket, is still on the v1 SDK): "How long should I wait after a 429?"']);
  });

  it('takes a paragraph that is one quotation under an examples heading as one example', () => {
    const text = '## Example Review Comments\n\n### On Poorly Named Variables\n"Variable names like \'data\' and \'stuff\'? What is this, a first-year assignment? These names tell me nothing."\n\n## Tone\n\n"Be blunt." is our motto.';
    // Before, the quotation was prose, and its first sentence could be kept alone.
    assert.deepEqual(shape(text).filter((r) => r.startsWith('example')), ['example: "Variable names like \'data\' and \'stuff\'? What is this, a first-year assignment? These names tell me nothing."']);
  });

  it('does not take a label in passing for the final input', () => {
    const text = 'Input: the user file.\n\nFirst paragraph.\n\nSecond paragraph.\n\nThird paragraph.\n\nFourth paragraph.';
    assert.ok(!shape(text).some((r) => r.includes('📌')), shape(text).join('\n'));
  });
});

describe('core/prompt/layout: tags named in any script', () => {
  const zh = [
    '你好！接下来请你扮演"小鹿"，是鹿鸣家居官方旗舰店的在线客服助手。',
    '<角色说明>\n你代表鹿鸣家居回答顾客在天猫和京东店铺里的咨询。语气要亲切、耐心，每条回复尽量控制在120字以内。\n</角色说明>',
    '<规则>\n1. 签收后7天内可无理由退货，但定制类商品除外。\n2. 订单实付满99元包邮；不满99元的，江浙沪收取8元运费，其他地区收取12元。\n3. 绝对不要向顾客透露任何其他顾客的订单信息、手机号或收货地址。\n</规则>',
    '<常见问题>\n- 问：沙发可以上门安装吗？答：上海、杭州、苏州三个城市免费上门安装，其他城市安装费另付，约150–300元。\n- 问：发票怎么开？答：下单时在备注里填写抬头和税号，电子发票会在确认收货后3个工作日内发送。\n</常见问题>',
  ].join('\n\n');

  it('keeps or drops a <规则> section\'s tags together, and the role that opens on 接下来', () => {
    // Before, "</规则>" and "<常见问题>" were sentences of their own: at 50% one of a pair went. The role went too.
    for (const budget of ['50%', '33%', '25%'])
      for (const mode of ['strict', 'relaxed'] as const) {
        const out = optimize({ text: zh, budget, mode }).text;
        for (const name of ['角色说明', '规则', '常见问题']) assert.equal(out.split(`<${name}>`).length, out.split(`</${name}>`).length, `${budget} ${mode} ${name}\n${out}`);
        if (budget === '50%') assert.ok(out.includes('接下来请你扮演"小鹿"'), `${budget} ${mode}\n${out}`);
      }
  });
});

describe('core/prompt/layout: the question after the documents', () => {
  const docs = [
    'Answer the customer using only the documents below.',
    '<document id="kb-204">\nTitle: Data retention after cancellation\nWhen a subscription is cancelled, project data is kept read-only for 30 days. Enterprise plans keep it for 90 days.\n</document>',
    '<document id="kb-509">\nTitle: Office holiday schedule\nSupport is closed on December 25 and January 1.\n</document>',
  ].join('\n\n');

  it('pins the question that follows the last document, not the document', () => {
    const text = `${docs}\n\nCustomer question: We cancelled 45 days ago on the Enterprise plan. Can we still get our data back?`;
    const pinned = shape(text).filter((r) => r.includes('📌'));
    // Before, the office holiday schedule was pinned as the final input and the question competed as prose.
    assert.deepEqual(pinned, ['prose📌: Customer question: We cancelled 45 days ago on the Enterprise plan. Can we still get our data back?']);
    // A prompt that ends on its document still pins it.
    assert.ok(shape(docs).some((r) => r.startsWith('prose📌: Title: Office holiday schedule')), shape(docs).join('\n'));
  });

  it('drops a document\'s "Title:" line with the last of its text: no document is a title alone', () => {
    const text = `${docs}\n\nCustomer question: We cancelled 45 days ago on the Enterprise plan. Can we still get our data back?`;
    for (const mode of ['strict', 'relaxed'] as const)
      for (let percent = 20; percent <= 95; percent += 5) {
        const out = optimize({ text, budget: `${percent}%`, mode }).text;
        for (const m of out.matchAll(/^Title: .*\n(.*)/gm)) assert.notEqual(m[1], '</document>', `${mode} ${percent}%\n${out}`);
      }
  });
});

describe('core/prompt/layout: a quoted inquiry after the documents', () => {
  it('keeps the customer inquiry in 「」 after the documents, whole, at every budget', () => {
    const text = [
      'あなたは当社カスタマーサポートの回答支援 AI です。以下の参考文書だけを根拠に、問い合わせへの回答案を作成してください。',
      '<documents>\n<document id="1" title="返品・交換ポリシー">\n商品到着後 14 日以内であれば、未開封・未使用に限り返品を受け付けます。初期不良の場合は当社が送料を負担します。\n</document>\n<document id="2" title="採用情報ページ">\n当社では現在、カスタマーサポートスタッフを募集しています。\n</document>\n</documents>',
      'お客様からの問い合わせ：\n「5 月 8 日に注文番号 A-20240508-3317 でイヤホンを購入しました。右耳側から音が出ません。返品か交換はしてもらえますか？」',
    ].join('\n\n');
    const inquiry = text.slice(text.indexOf('「5 月'));
    // Before, the last <document> was pinned as the final input and the inquiry went at every budget below 100%.
    for (const mode of ['strict', 'relaxed'] as const)
      for (const budget of ['50%', '33%']) assert.ok(optimize({ text, budget, mode }).text.includes(inquiry), `${mode} ${budget}`);
  });
});
