import { strict as assert } from 'node:assert';
import { optimize } from '../../../src/core';
import { sentenceText } from '../../../src/core/doc';
import { parse } from '../helpers';

/** Whether every line of `items` is in relaxed mode's output of `text` at each budget. */
function keepsAll(text: string, items: readonly string[], budgets = ['50%', '33%', '25%']) {
  for (const budget of budgets) {
    const out = optimize({ text, budget, mode: 'relaxed' }).text;
    for (const item of items) assert.ok(out.includes(item), `${budget}: lost "${item}"\n${out}`);
  }
}

describe('core/passes/requests: a request written as a list of asks', () => {
  it('keeps, in relaxed mode, each item of the list the writer asks in ("What I\'d like:", "Fragen:", "Lo que necesitaría:")', () => {
    const csv = '```csv\nmonth,region,revenue_k,new_customers,marketing_k\nApr,NA,1820,410,250\nApr,EMEA,1190,300,160\nMay,NA,1905,395,262\nMay,EMEA,1240,322,171\nJun,NA,1987,430,270\nJun,EMEA,1302,318,180\n```';
    const en = [
      'Hi! Hope the week is going OK. I pulled the numbers for our quarterly review and, honestly, I am a bit lost with them, so any help is welcome.',
      'Below is a CSV export of our Q2 figures per region and month. Our finance team put it together last Friday from the billing system.',
      csv,
      "What I'd like, if possible:",
      '1. The total Q2 revenue per region and the growth over Q1, which was NA 5,310k and EMEA 3,480k.',
      '2. The customer acquisition cost per region and month, and which region is trending the wrong way.',
      '3. A two-sentence summary for the board.',
      "Don't make up figures that the data cannot give. Thanks a lot!",
    ].join('\n\n');
    // Before, at 50% the output was the CSV and the last rule: no question left.
    keepsAll(en, ['1. The total Q2 revenue per region', '2. The customer acquisition cost', '3. A two-sentence summary']);
    const de = [
      'Hallo zusammen, ich hätte da mal eine Frage zu unseren Windkraftanlagen, vielleicht magst du kurz draufschauen, das wäre echt nett.',
      'Die Tabelle zeigt die Erträge des dritten Quartals je Anlage. Sie kommt direkt aus dem Leitstand und ist noch nicht geprüft.',
      '| Anlage | Juli MWh | August MWh | September MWh |\n|---|---|---|---|\n| WEA 1 | 1.210 | 980 | 1.105 |\n| WEA 2 | 1.190 | 410 | 1.080 |\n| WEA 3 | 1.250 | 1.010 | 1.120 |',
      'Fragen:',
      '1. Wie hoch ist der Kapazitätsfaktor jeder Anlage im Quartal, bei 3,6 MW Nennleistung?',
      '2. Wie hoch wäre der Augustertrag von WEA 2 gewesen, wenn die Verfügbarkeit bei 97 % gelegen hätte?',
      '3. Welche Anlage sollte als erste gewartet werden?',
      'Und rechne nicht mit der Vergütung, die kommt später. Danke dir!',
    ].join('\n\n');
    keepsAll(de, ['1. Wie hoch ist der Kapazitätsfaktor', '2. Wie hoch wäre der Augustertrag', '3. Welche Anlage']);
    const es = [
      'Hola, buenas. Te escribo porque llevo toda la mañana con esto y no acabo de verlo claro, la verdad.',
      'Tenemos tres panaderías en Valencia y te paso el consumo de harina de enero a marzo, sacado del programa de compras.',
      '```csv\nmes,tienda,kg_harina,panes\nene,Ruzafa,1840,9100\nene,Benimaclet,1220,6050\nfeb,Ruzafa,1790,8800\nfeb,Benimaclet,1260,6300\nmar,Ruzafa,1905,9400\nmar,Benimaclet,1300,6420\n```',
      'Lo que necesitaría, si no es mucha molestia:',
      '1. El coste medio por kilo en cada mes, sabiendo que el proveedor subió el precio de 0,65 a 0,66 €/kg en febrero.',
      '2. Los gramos de harina por pan vendido en cada tienda y mes, redondeado a un decimal.',
      'Mil gracias de antemano.',
    ].join('\n\n');
    keepsAll(es, ['1. El coste medio por kilo', '2. Los gramos de harina por pan']);
  });

  it('keeps the points asked "about the following" in Japanese and Chinese', () => {
    const ja = [
      'お疲れ様です。在庫管理APIのレビューをお願いしたく、ご連絡しました。',
      '```ts\nconst item = await prisma.stock.findUnique({ where: { sku } });\nawait prisma.stock.update({ where: { sku }, data: { qty: item.qty - n } });\n```',
      'お手数ですが、以下の3点について教えていただけますと大変助かります。',
      '1. TS18047 のエラーの意味と、適切な修正方法',
      '2. 在庫数がマイナスになる原因と、Prismaでの正しい対処法',
      '3. テストの書き方',
      'よろしくお願いいたします。',
    ].join('\n\n');
    keepsAll(ja, ['1. TS18047 のエラーの意味', '2. 在庫数がマイナスになる原因', '3. テストの書き方']);
    const zh = [
      '大家好，辛苦了～我这边遇到一个 FastAPI 的问题，查了一下午也没查出来。',
      '```python\nengine = create_async_engine(URL, pool_size=5)\nsession = AsyncSession(engine)\n\n@app.get("/orders")\nasync def orders():\n    return await session.execute(select(Order))\n```',
      '我的问题有两个：',
      '1. 这个错误的根本原因是什么？',
      '2. 正确的写法应该是怎样的？最好能给出修改后的完整代码。',
      '先谢谢各位了！',
    ].join('\n\n');
    keepsAll(zh, ['1. 这个错误的根本原因是什么？', '2. 正确的写法应该是怎样的？']);
  });

  it('keeps the asks after "Deliverables:", "Ce que j\'attends de vous :" and an ask that hedges ("…, mas não sei explicar direito")', () => {
    const code = '```yaml\nservices:\n  api:\n    image: node:20\n    ports: ["3000:3000"]\n  nginx:\n    image: nginx:1.25\n    ports: ["80:80", "443:443"]\n```';
    const pt = `Oi, pessoal! Subi a API num VPS com docker compose e o nginx na frente, e no navegador dá 502 Bad Gateway. Já reiniciei tudo umas mil vezes.\n\n${code}\n\nO que eu preciso:\n1. entender por que o nginx não acha a API (acho que tem a ver com o localhost, mas não sei explicar direito);\n2. o nginx.conf corrigido;\n3. saber se o Fastify precisa escutar em 0.0.0.0.\n\nValeu demais!`;
    // Before, at 50% relaxed the list started at "2.": its first ask hedged, and read as an aside.
    keepsAll(pt, ['1. entender por que o nginx não acha a API', '2. o nginx.conf corrigido', '3. saber se o Fastify']);
    const en = `We are cleaning up the member database before the migration. The MemberNumber column has duplicates and the CommLog table has orphans.\n\n${code}\n\nDeliverables:\n1. A query that lists every duplicated MemberNumber.\n2. A query that counts orphaned CommLog rows by year.\n3. A short recommendation on the OptInEmail default.\n\nUse T-SQL only.`;
    keepsAll(en, ['1. A query that lists every duplicated MemberNumber.', '2. A query that counts orphaned', '3. A short recommendation']);
  });

  it('keeps a second ask put in so many words ("I\'d also like to know …") with the first', () => {
    const text = [
      "Hello! Quick (hopefully) question about a Stripe webhook that's driving me a little crazy. Our handler at `/webhooks/stripe` marks the subscription as cancelled even though the customer is still paying.",
      '```python\nif event["type"] == "customer.subscription.updated":\n    sub = event["data"]["object"]\n    if sub.get("canceled_at"):\n        db.subscriptions.update(sub["id"], status="cancelled")\n    else:\n        db.subscriptions.update(sub["id"], status=sub["status"])\n```',
      "So why is our DB saying cancelled when Stripe says active, and what should the condition be instead? We want the customer to keep access until the period ends. I'd also like to know whether we need to handle `customer.subscription.deleted` separately. Thanks so much in advance!",
    ].join('\n\n');
    // Before, relaxed mode at 50% kept the first question and dropped the second.
    keepsAll(text, ["I'd also like to know whether we need to handle `customer.subscription.deleted` separately."]);
  });

  it('keeps the first paragraph under "## What I need" as the request', () => {
    const text = [
      '# Create a safe migration', "I'd like you to help me write a new database migration for our Rails app. We've had outages caused by migrations that locked big tables.",
      '<rules>\n1. Always use `algorithm: :concurrently` when adding an index to a table with more than 1 million rows.\n2. Never add a column with a non-null default to `shifts` in one step.\n3. Set `lock_timeout` to `5s` at the top of the migration.\n</rules>',
      '## What I need', 'The specific change is: add a `break_minutes` integer column to `shifts`, and add an index on `shifts (location_id, starts_at)` because the weekly roster query takes ~4.8 seconds.',
      'Here is the current schema excerpt:', '```ruby\ncreate_table "shifts" do |t|\n  t.bigint "location_id", null: false\n  t.datetime "starts_at", null: false\nend\n```',
      "Please don't run the migrations yourself. Thanks a lot!",
    ].join('\n\n');
    // Before, at 50% "## What I need" stood over the schema: the change itself was gone, in both modes.
    keepsAll(text, ['The specific change is: add a `break_minutes` integer column'], ['50%', '33%']);
  });

  it('takes a need that names the work for the request ("Preciso de traduzir a newsletter …"), not one the writer does', () => {
    // Before, "Preciso de traduzir …" was background: at 33% of a newsletter to translate the request went and
    // the rules about how to translate stayed without it.
    const requests = (text: string) => parse(text).blocks.flatMap((b) => b.sentences.filter((s) => s.request).map(sentenceText));
    const pt = 'Preciso de traduzir a newsletter da nossa clínica do português do Brasil para o inglês americano.';
    assert.deepEqual(requests(`Bom dia! Desculpa incomodar outra vez. ${pt} Seria ótimo.\n\nTexto da newsletter:\n\n"Julho chegou."`), [pt]);
    assert.deepEqual(requests('I need to summarise these notes for my manager, who was away.\n\nNotes:\n\n- We ship on 3 May.'), ['I need to summarise these notes for my manager, who was away.']);
    assert.deepEqual(requests('I need to tell our client that the launch will slip. It moves to 12 May.'), []);
    // An instruction about the input is the request before a need stated ahead of it, and "Extrais" instructs:
    // before, "J'ai besoin d'un petit coup de main pour automatiser …" was the request and at 33% the only ask left.
    const fr = "Salut ! J'ai besoin d'un petit coup de main pour automatiser le traitement de nos factures fournisseurs.\n\n" +
      "Je vais te donner le texte d'un e-mail de fournisseur. Extrais les informations et renvoie uniquement un objet JSON valide qui respecte le schéma ci-dessous.\n\n<schema>\n{\"numero_facture\": \"string\"}\n</schema>";
    assert.deepEqual(requests(fr), ['Extrais les informations et renvoie uniquement un objet JSON valide qui respecte le schéma ci-dessous.']);
  });

  it('leaves a system prompt\'s rule list to compete by value: "Rules:" is no list of asks', () => {
    const rules = ['Never share a customer\'s address.', 'Reply in the customer\'s language.', 'Keep answers under 120 words.', 'Use the customer\'s first name.', 'Offer the help centre link at the end.', 'Do not discuss competitors.'];
    const text = `You are the support assistant of Acme Cloud Storage, a file sync service for small teams.\n\nRules:\n\n${rules.map((r, i) => `${i + 1}. ${r}`).join('\n')}`;
    const out = optimize({ text, budget: '50%', mode: 'relaxed' }).text;
    assert.ok(rules.filter((r) => out.includes(r)).length < rules.length, out);
  });
});

describe('core/passes/requests: the draft the prompt announces is its input', () => {
  const fr = [
    'Bonjour,',
    "Je me permets de vous solliciter pour une petite aide de rédaction, si vous avez un moment. Je dois envoyer un mail délicat à un fournisseur, et honnêtement mon brouillon est trop agressif. J'aimerais que vous le réécriviez pour qu'il reste ferme mais courtois.",
    'Quelques contraintes :',
    '- Gardez les faits : la commande CMD-2024-08817, livrée le 27 septembre au lieu du 12.',
    '- Pas plus de 200 mots.',
    '- Gardez la signature telle quelle.',
    'Voici le brouillon :',
    '---',
    'Objet : Commande CMD-2024-08817 — inadmissible',
    'Madame Rousseau,',
    "Franchement je ne sais même plus quoi vous dire. La commande devait arriver le 12, elle est arrivée le 27 ! Et en plus 14 palettes sur 40 avaient les cartons écrasés. C'est la troisième fois cette année.",
    'On veut un avoir de 2 350 € HT et une réponse avant le 15 octobre.',
    'Cordialement,',
    'Julien Marchand\nResponsable logistique — Maison Verdier SAS',
    '---',
    'Merci infiniment par avance !',
  ].join('\n\n');
  const draft = fr.slice(fr.indexOf('Objet :'), fr.indexOf('\n\n---', fr.indexOf('Objet :')));

  it('keeps a draft set between two rules whole and as written, in relaxed mode at any budget', () => {
    // Before, at 100% "Franchement" and "Cordialement," went from the letter; at 50% the letter kept two of its sentences.
    for (const budget of ['100%', '50%', '33%']) {
      const out = optimize({ text: fr, budget, mode: 'relaxed' }).text;
      assert.ok(out.includes(draft), `${budget}\n${out}`);
      // And what to do with it: "J'aimerais que vous le réécriviez …" is the request ("I'd like you to …").
      assert.ok(out.includes("J'aimerais que vous le réécriviez"), `${budget}\n${out}`);
    }
  });

  it('reads a signature right above the closing rule as the letter\'s last line, not a heading', () => {
    // "Daniela" over "---" is a setext heading to CommonMark: the letter had no closing rule, so at 100% its
    // "I really hope you can sort this out.", its signature and the rule itself went, and "really not" became "not".
    const text = [
      'Could you rewrite the email below so it sounds firm but professional? Keep it under 200 words.',
      "Here's my draft:",
      '---\nHi Tom,',
      "I'm writing AGAIN about PO-88213. This is really not acceptable. We need the 12,000 cartons by 4 November.",
      'I really hope you can sort this out.',
      'Daniela\n---',
      'Thanks a lot in advance, this really helps!',
    ].join('\n\n');
    const letter = text.slice(text.indexOf('---'), text.lastIndexOf('---') + 3);
    for (const mode of ['strict', 'relaxed'] as const) {
      const out = optimize({ text, budget: '100%', mode }).text;
      assert.ok(out.includes(letter), `${mode}\n${out}`);
      assert.ok(!out.includes('Thanks a lot'), out);
    }
  });

  it('keeps as written an email between two rules that a paragraph asking about "the email below" announces, and a <lease>', () => {
    // Before, the lead ended on "?" rather than a colon: at 100% "was basically stopped" lost its "basically" and
    // "we will have to" became "we'll have to" in the email to rewrite; "<lease>" was no material tag either.
    const email = '---\nDave,\n\nOrder PO-48213 was supposed to arrive on March 4. Our line was basically stopped for two days. If this happens again we will have to look at other suppliers, seriously.\n\nTom\n---';
    const text = `I need to send the email below to a supplier, but it sounds way too angry. Could you please rewrite it?\n\n${email}\n\nKeep it under 200 words.`;
    assert.ok(optimize({ text, budget: '100%' }).text.includes(email));
    const lease = '<lease>\n5. LATE PAYMENT. If rent is not received within 5 days after the due date, Tenant shall pay a late fee of 5%.\n</lease>';
    assert.ok(optimize({ text: `Extract the late fee from the lease.\n\n${lease}`, budget: '100%' }).text.includes(lease));
  });

  it('keeps a blockquoted or quoted draft whole in relaxed mode, and ranks it first in strict mode', () => {
    const zh = [
      '你好，麻烦帮我改一封商务邮件，谢谢！',
      '情况大概是这样：我们公司上个月跟德国客户 Müller GmbH 签了 1,200 台 LQ-S300 传感器的订单，合同交货日期是 6 月 28 日，但是因为芯片缺货，我们最快只能在 7 月 12 日发货。老板让我写封邮件跟对方的采购经理说明情况。',
      '我的初稿如下：',
      '> 尊敬的 Schmidt 先生：\n>\n> 您好！非常抱歉打扰您了。我们的 LQ-S300 订单本来说好 6 月 28 日交货，但是芯片供应商出了问题，我们最快只能 7 月 12 日发货了。为了表示歉意，我们愿意打 3% 的折扣。您看怎么样？\n>\n> 祝好！\n> 王磊',
      '修改要求：',
      '- 语气要正式、专业，不要卑微；\n- 道歉一次就够了；\n- 长度控制在 300 字左右。',
    ].join('\n\n');
    const quote = zh.slice(zh.indexOf('> 尊敬的'), zh.indexOf('> 王磊') + 4);
    // Before, at 50% the draft was "> 您好！我们现在最快只能 7 月 12 日发货了。" and its signature.
    assert.ok(optimize({ text: zh, budget: '50%', mode: 'relaxed' }).text.includes(quote));
    assert.ok(optimize({ text: zh, budget: '60%', mode: 'strict' }).text.includes(quote));
  });

  it('keeps a <draft> section as written, and the list after "Please rewrite the draft so that:"', () => {
    const draft = '<draft>\nquillmark is a Rust crate. It is a parser. It parses lab notebook markdown. It is fast. You should use it if you have lab notebooks in markdown.\n</draft>';
    const text = [
      'Hello! I maintain a small open-source Rust library called `quillmark` (it parses a Markdown dialect we use for lab notebooks). We are about to tag v0.9.0 and I want the README intro to be better.',
      'A few facts that might help:\n- It is on crates.io, MSRV is Rust 1.74.\n- It does NOT render LaTeX math.',
      draft,
      'Please rewrite the draft so that:\n1. The first sentence says what it is and who it is for.\n2. It clearly says LaTeX math is not supported.\n3. It stays under 110 words.',
      'Thanks, I owe you one!',
    ].join('\n\n');
    // Before, at 100% "It is a parser" became "It's a parser" inside the draft; at 25% relaxed the draft stood without what to do with it.
    assert.ok(optimize({ text, budget: '100%', mode: 'relaxed' }).text.includes(draft));
    keepsAll(text, [draft, '1. The first sentence says what it is', '3. It stays under 110 words.'], ['50%', '25%']);
  });

  it('keeps the constraints of the rewrite listed after the draft, in relaxed mode', () => {
    const text = [
      "Bonjour à tous,",
      "Je me permets de vous solliciter pour un petit coup de main rédactionnel. Je suis responsable de l'infra dans une PME lyonnaise et je dois annoncer à toute l'équipe une migration du NAS vers SharePoint Online.",
      'Voici mon brouillon :',
      '---\nObjet : Migration NAS\n\nBonjour,\nLe NAS va être migré vers SharePoint le week-end du 21-22 septembre. Le vendredi 20 à partir de 18h le NAS passera en lecture seule. Les dossiers perso (U:) ne sont PAS migrés.\nMerci\nMathieu\n---',
      'Contraintes pour la réécriture :\n- ton chaleureux et rassurant, vouvoiement collectif\n- l\'avertissement sur le lecteur U: doit apparaître en premier, en gras\n- 250 mots maximum, pas de jargon',
    ].join('\n\n');
    // Before, at 25% relaxed the output was the draft alone: nothing said what to do with it.
    keepsAll(text, ['- ton chaleureux et rassurant', "- l'avertissement sur le lecteur U:", '- 250 mots maximum'], ['50%', '25%']);
  });
  it('reads a question labelled by a hedge ("I guess what I\'m really asking is: why …?") as the request, not as talk about the prompt', () => {
    const text = [
      'Our Celery workers get OOM-killed every few hours since we upgraded Celery from 5.2.7 to 5.3.6. The box has 4 GB RAM and we run 4 worker processes with `--concurrency=4`.', '',
      'Things I tried: `worker_max_tasks_per_child=50` did not help, and more swap only made it slower before crashing. It does not happen locally, which is super annoying, and honestly I have been staring at this for two days now.', '',
      "Anyway, sorry, I know that's a lot. I guess what I'm really asking is: why would the Celery upgrade make this start happening, and how can I stop the worker from being OOM-killed without adding RAM? Thanks so much!!",
    ].join('\n');
    for (const mode of ['strict', 'relaxed'] as const) {
      const out = optimize({ text, budget: '50%', mode }).text;
      assert.ok(out.includes('why would the Celery upgrade make this start happening'), `${mode}: the question is gone\n${out}`);
    }
  });
});

describe('core/passes/requests: the answer\'s options', () => {
  const examples = (pairs: [string, string][], q: string, a: string) => pairs.map(([input, label]) => `${q}${input}\n${a}${label}`).join('\n\n');
  const cases: [string, string, string][] = [
    [
      'Portuguese',
      'Estou montando um classificador de avaliações de um aplicativo de delivery e preciso que você classifique cada avaliação em exatamente uma destas categorias: ENTREGA, PAGAMENTO, APP, ATENDIMENTO, ELOGIO.',
      ['Não invente categorias novas e não explique a resposta, apenas escreva o rótulo.', '', 'Seguem alguns exemplos:', '',
        examples([['O motoboy demorou mais de uma hora e a comida chegou fria.', 'ENTREGA'], ['Cobraram duas vezes no meu cartão e ninguém resolve.', 'PAGAMENTO'], ['O app fecha sozinho quando abro o carrinho.', 'APP'], ['A atendente foi grossa comigo no chat.', 'ATENDIMENTO']], 'Entrada: ', 'Saída: '),
        '', 'Agora classifique:', '', 'Entrada: Não consigo pagar com Pix, dá erro toda hora.', 'Saída:'].join('\n'),
    ],
    [
      'Chinese',
      '任务：判断用户评论的情感，只能输出以下三个标签之一：正面、负面、中性。',
      ['不要输出任何解释，不要加标点。', '', '规则：', '- 评论中同时有夸奖和抱怨时，以最后一句的态度为准。', '- 只针对物流的抱怨也算负面。', '',
        examples([['衣服质量很好，就是快递慢了点，不过总体还是满意的。', '正面'], ['用了三天就坏了，客服也不回消息。', '负面'], ['还行吧，跟图片差不多。', '中性']], '输入：', '输出：'),
        '', '现在请判断：', '输入：颜色和描述的不一样，但是穿上很舒服，会回购。', '输出：'].join('\n'),
    ],
  ];
  for (const [lang, options, rest] of cases)
    it(`keeps the sentence that names the labels an answer may take with the final input (${lang})`, () => {
      const text = `${options}\n\n${rest}`;
      for (const mode of ['strict', 'relaxed'] as const)
        for (const budget of ['40%', '50%']) {
          const out = optimize({ text, budget, mode }).text;
          // Before, at 40% the labels went and "don't invent new categories" stayed.
          assert.ok(out.includes(options), `${mode} ${budget}: the labels are gone\n${out}`);
        }
    });
});
