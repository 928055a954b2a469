import { strict as assert } from 'node:assert';
import { render, sentenceText } from '../../../src/core/doc';
import { parse } from '../helpers';
import { optimize } from '../../../src/core';

describe('core/passes/segment', () => {
  const kinds = (text: string) => parse(text).blocks.map((b) => b.kind);
  /** The sentences of the first block of `text`, as the segmenter cuts them. */
  const firstSentences = (text: string) => parse(text).blocks[0]!.sentences.map(sentenceText);

  it('renders back to its input (lossless) for ordinary markdown', () => {
    const text = '# Title\n\nFirst sentence. Second one!\n\n- item one\n- item two\n\n```js\nconst a = 1;\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |';
    assert.equal(render(parse(text)), text);
  });

  it('never ends a sentence inside brackets, so no unit leaves a lone "]" or ")" behind', () => {
    assert.deepEqual(firstSentences('[Caveat: run it in a container. Be careful. Paste the last few lines]. I am a terminal. Reply (in English. Or German) now. Use (a) this. Unclosed (here. And on.'), [
      '[Caveat: run it in a container. Be careful. Paste the last few lines].',
      'I am a terminal.',
      'Reply (in English. Or German) now.',
      'Use (a) this.',
      'Unclosed (here.',
      'And on.',
    ]);
  });

  it('never ends a sentence inside full-width brackets, so no unit leaves a lone "」" behind', () => {
    assert.deepEqual(firstSentences('最初の質問は「ローマで何を見るべきですか？」です。次に進みます。'), ['最初の質問は「ローマで何を見るべきですか？」です。', '次に進みます。']);
    assert.deepEqual(firstSentences('彼は『本当に？』と聞いた。（注意：これは例です。実行しないでください。）次に進みます。'), ['彼は『本当に？』と聞いた。', '（注意：これは例です。実行しないでください。）次に進みます。']);
    // A long quoted passage is a text of its own sentences: it still splits.
    const passage = '「' + '本機は家庭用の電源でご使用ください。'.repeat(12) + '」';
    assert.ok(firstSentences(`以下を翻訳してください。${passage}`).length > 2);
  });

  it('never ends a sentence inside bold emphasis, so no unit leaves a lone "**" behind', () => {
    assert.deepEqual(firstSentences('**You read everything. You fix nothing.** Your output is the audit report. **Bold** text here.'), ['**You read everything. You fix nothing.** Your output is the audit report.', '**Bold** text here.']);
  });

  it('recognises protected blocks', () => {
    assert.deepEqual(kinds('Intro.\n\n```\ncode\n```\n\n{"a": 1, "b": [2]}\n\n| x | y |\n|---|---|\n| 1 | 2 |'), ['prose', 'code', 'data', 'table']);
    assert.deepEqual(kinds('<keep>\nVerbatim text, do not touch.\n</keep>\nAfter.'), ['keep', 'prose']);
    assert.deepEqual(kinds('## Heading\n<context>\nText.\n</context>'), ['heading', 'markup', 'prose', 'markup']);
    assert.deepEqual(kinds('config:\n  port: 8080\n  host: local'), ['data']);
  });

  it('protects an unbalanced code fence to the end of the text', () => {
    const doc = parse('Intro text.\n\n```python\nprint("no closing fence")\nmore code');
    assert.deepEqual(doc.blocks.map((b) => b.kind), ['prose', 'code']);
    assert.equal(doc.blocks[1]!.body, '```python\nprint("no closing fence")\nmore code');
  });

  it('protects a <keep> span opened inside a list item and closed on a line of its own', () => {
    const doc = parse('1. numbered item <keep>\nDo   not   touch.\n</keep>');
    assert.equal(doc.blocks.length, 1);
    assert.ok(doc.blocks[0]!.sentences.some((s) => s.pieces.some((p) => p.locked && p.text.includes('Do   not   touch.'))));
  });

  it('removes <keep> markers from the output but keeps their content', () => {
    assert.equal(render(parse('<keep>\nExact words.\n</keep>')), 'Exact words.');
    assert.equal(render(parse('Say <keep>exactly this</keep> please.')), 'Say exactly this please.');
  });

  it('keeps list markers as block prefixes', () => {
    const doc = parse('- first item. Has two sentences.\n2. second item');
    assert.deepEqual(doc.blocks.map((b) => b.prefix), ['- ', '2. ']);
    assert.deepEqual(doc.blocks[0]!.sentences.map(sentenceText), ['first item.', 'Has two sentences.']);
  });

  it('splits sentences without cutting decimals, abbreviations, initials, URLs or versions', () => {
    assert.deepEqual(firstSentences('Dr. Smith paid $3.50 for v1.2.3 at https://x.io/a.b. J. R. R. Tolkien wrote it, e.g. in 1937. Next sentence here.'), [
      'Dr. Smith paid $3.50 for v1.2.3 at https://x.io/a.b.',
      'J. R. R. Tolkien wrote it, e.g. in 1937.',
      'Next sentence here.',
    ]);
  });

  it('locks protected inline spans', () => {
    const doc = parse('Use `npm ci` with {{name}} and $HOME at 5 ms on 2024-01-05 in "quoted text".');
    const locked = doc.blocks[0]!.sentences[0]!.pieces.filter((p) => p.locked).map((p) => p.text);
    assert.deepEqual(locked, ['`npm ci`', '{{name}}', '$HOME', '5 ms', '2024-01-05', '"quoted text"']);
  });

  it('pins a template slot that stands alone, where the app puts the input', () => {
    const pinned = (text: string) => parse(text).blocks.flatMap((b) => b.sentences.filter((s) => s.pinned).map(sentenceText));
    assert.deepEqual(pinned('Label each review.\n\n## Reviews to classify\n\n{reviews_jsonl}\n\nThanks!'), ['{reviews_jsonl}']);
    assert.deepEqual(pinned('Answer the customer.\n\n{{ ticket }}'), ['{{ ticket }}']);
    assert.deepEqual(pinned('Use {name} in the greeting. Keep it short.\n\nThe end.'), []);
  });

  it('pins the role and the closing request in every language, past greetings and thanks', () => {
    const pinned = (text: string) => parse(text).blocks.flatMap((b) => b.sentences.filter((s) => s.pinned).map(sentenceText));
    assert.deepEqual(pinned('お疲れ様です。いつもありがとうございます。予約アシスタント用のプロンプトです。\n\nあなたは予約を手伝うエージェントです。以下のルールを守ってください。'),
      ['あなたは予約を手伝うエージェントです。']);
    assert.deepEqual(pinned('死锁日志如下。\n\n请用中文回答：先解释原因，然后给出修改后的代码。\n\n辛苦了，非常感谢！'), ['请用中文回答：先解释原因，然后给出修改后的代码。']);
    assert.deepEqual(pinned('Tengo un handler en Go que falla. Responde en español, con un máximo de 5 puntos. Ah, y el código vacío debe devolver 400. ¡Mil gracias de antemano!'),
      ['Responde en español, con un máximo de 5 puntos.']);
    // A role in a paragraph of its own, late in the text, still leaves the closing request its due.
    assert.deepEqual(pinned('# Auditor\n\nRead everything.\n\nFix nothing.\n\nYou are the migration auditor.\n\n```\nreport\n```\n\nReturn to the commander with: total issue count, critical count.'),
      ['You are the migration auditor.', 'Return to the commander with: total issue count, critical count.']);
    // Under a section heading, a plain instruction is that section's last rule; a task section's is the request.
    assert.deepEqual(pinned('You are Ivy, the QA engineer.\n\n## Boundaries\n\nDo not edit source.\n\n## Working style\n\nBe skeptical. Prefer a few high-value checks.'), ['You are Ivy, the QA engineer.']);
    assert.deepEqual(pinned('You are Ivy, the QA engineer.\n\n## Boundaries\n\nDo not edit source.\n\n## Task\n\nReview the login page on staging.'), ['You are Ivy, the QA engineer.', 'Review the login page on staging.']);
    // So in a tag pair: "<output>" holds the format's rules, "<task>" the request.
    assert.deepEqual(pinned('<instructions>\nWrite a token bucket limiter for the API.\n</instructions>\n\n<output>\nOnly the code, in one file.\n</output>'), []);
    assert.deepEqual(pinned('<rules>\nNever log secrets.\n</rules>\n\n<task>\nWrite a token bucket limiter for the API.\n</task>'), ['Write a token bucket limiter for the API.']);
    // A section titled as the role says who the model is: its first sentence is the role, however it opens.
    assert.deepEqual(pinned('# Debugger\n\n<role>\n\n## Role\n\nTrace root causes, reproduce errors. Never implement code.\n\n</role>\n\n## Rules\n\n- Read logs first.'),
      ['Trace root causes, reproduce errors.']);
    assert.deepEqual(pinned('## Persona\n\nA patient tutor for school maths. Explain step by step.\n\n## Rules\n\n- Never give the answer first.'), ['A patient tutor for school maths.']);
    // Not a section of another title, nor prose after the role section has ended.
    assert.deepEqual(pinned('## Role\n\n## Rules\n\n- Read logs first.\n- Never guess.'), []);
    // "I'd like you to act as …" is "I would like you to act as …" contracted: a role too. So are the other
    // ways prompts open on one: after "please" or a greeting to the assistant, "I need you to …", "You
    // will act as …", "Imagine you're …".
    for (const role of [
      "I'd like you to act as a travel guide.", 'I’d love you to act as a travel guide.', 'I would like you to act as a travel guide.',
      'Please act as a travel guide.', 'Hey ChatGPT, act as a travel guide.', 'I need you to act as a travel guide.',
      'You will act as a travel guide.', "You'll act as a travel guide.", "Imagine you're a travel guide.", 'Pretend you’re a travel guide.',
    ])
      assert.deepEqual(pinned(`${role} You will suggest places to visit near a location. Keep each suggestion short.`), [role]);
    // And in the other languages: "I want you to act as …" and "act as …" as their prompts put it.
    for (const [role, rest] of [
      ['Quiero que actúes como guía turístico.', 'Sugiere tres lugares cerca de mí y sé breve.'],
      ['Je veux que tu agisses comme un guide touristique.', 'Propose trois lieux près de moi et sois bref.'],
      ['Agissez en tant que guide touristique.', 'Proposez trois lieux près de moi.'],
      ['Quero que você atue como um guia turístico.', 'Sugira três lugares perto de mim e seja breve.'],
      ['Du agierst als Reiseführer.', 'Schlage drei Orte in meiner Nähe vor und fasse dich kurz.'],
      ['请扮演一名导游。', '推荐三个附近的景点，回答要简短。'],
      ['请你充当一名导游。', '推荐三个附近的景点，回答要简短。'],
      ['プロの旅行ガイドとして振る舞ってください。', '近くのおすすめの場所を三つ教えてください。'],
      ['熟練した旅行ガイドになりきってください。', '近くのおすすめの場所を三つ教えてください。'],
    ] as [string, string][])
      assert.deepEqual(pinned(`${role}${/[。]$/.test(role) ? '' : ' '}${rest}`), [role]);
    // The input a role prompt closes on, in the role's own paragraph.
    assert.deepEqual(pinned('I want you to act as a plagiarism checker. Do not write explanations. My first sentence is "For computers to behave like humans, speech matters."'),
      ['I want you to act as a plagiarism checker.', 'My first sentence is "For computers to behave like humans, speech matters."']);
    assert.deepEqual(pinned('Act as a guide. You will suggest sights. My first request is "I want to visit Rome, can you suggest some sights?" Thanks!'),
      ['Act as a guide.', 'My first request is "I want to visit Rome, can you suggest some sights?"']);
    assert.deepEqual(pinned('Act as a guide. You will suggest sights. The first time you answer, be brief.'), ['Act as a guide.']);
    // Without "my", after "Here is", or after a dash; "First of all:" and "First step:" introduce no input.
    for (const input of ['First request: "I want to visit Rome."', 'Here is my first request: "I want to visit Rome."', 'First question – “Where should I eat tonight?”'])
      assert.deepEqual(pinned(`Act as a guide. You will suggest sights. ${input}`), ['Act as a guide.', input]);
    // So in the other languages.
    for (const [role, input] of [
      ['Actúa como guía. Sugiere lugares.', 'Mi primera solicitud es "Quiero visitar Roma."'],
      ['Agis comme un guide. Propose des lieux.', 'Ma première demande est « Je veux visiter Rome. »'],
      ['Atue como um guia. Sugira lugares.', 'Meu primeiro pedido é "Quero visitar Roma."'],
      ['Agiere als Reiseführer. Schlage Orte vor.', 'Meine erste Anfrage ist „Ich will Rom besuchen.“'],
      ['请扮演一名导游。推荐景点。', '我的第一个请求是“我想去罗马。”'],
      ['あなたは旅行ガイドです。おすすめの場所を教えてください。', '最初の質問は「ローマで何を見るべきですか？」です。'],
    ] as [string, string][])
      assert.deepEqual(pinned(`${role}${role.endsWith('。') ? '' : ' '}${input}`), [role.replace(/(?<=[.。]).*$/u, ''), input]);
    assert.deepEqual(pinned('Actúa como guía. Sugiere lugares. La primera vez, sé breve.'), ['Actúa como guía.']);
    // "You'll be writing …" says who the model is as "You are …" does.
    assert.deepEqual(pinned("Hello! You'll be writing the release notes for Tallyflow from our merged pull requests. I know it's a boring job.\n\n## Rules\n\n- Only include customer-facing PRs."), ["You'll be writing the release notes for Tallyflow from our merged pull requests."]);
    // An article's "played an important role" (扮演了重要角色) is no role statement.
    assert.deepEqual(pinned('他在城市的历史上扮演了重要角色。这座城市建于1990年。'), []);
    for (const rule of ['First of all: be brief.', 'First things first: be brief.', 'First step: ask for the city.'])
      assert.deepEqual(pinned(`Act as a guide. You will suggest sights. ${rule}`), ['Act as a guide.']);
    assert.deepEqual(pinned('Act as a tech writer. You will write guides. These are the steps of the app: "1. Click on download 2. Install the file."'),
      ['Act as a tech writer.', 'These are the steps of the app: "1. Click on download 2. Install the file."']);
    // Under a label that opens its paragraph ("Output:"), the last rule is that section's, not the request.
    assert.deepEqual(pinned('Task:\nWrite a reusable prompt that proposes subject lines.\n\nOutput:\nReturn the prompt in a code block. Do not add examples outside it.'), []);
    // So does a polite ask without its question mark, before the closing rule.
    assert.deepEqual(pinned('O cliente fez o pedido nº FJ-58213.\n\nVocê poderia escrever uma resposta para o cliente, propondo o reenvio. Use "você", não "o senhor".\n\nDesde já, muito obrigada!'),
      ['Você poderia escrever uma resposta para o cliente, propondo o reenvio.', 'Use "você", não "o senhor".']);
    // The question that asks comes before the last rule about it: both are the request.
    assert.deepEqual(pinned('My retry decorator loops forever.\n\n```python\nwhile True: pass\n```\n\nCan you point out the bugs and show a fixed version? Keep the explanation to at most 5 bullet points.'),
      ['Can you point out the bugs and show a fixed version?', 'Keep the explanation to at most 5 bullet points.']);
    // A closing imperative whose verb is no everyday prompt verb is the request all the same.
    assert.deepEqual(pinned('The release moves from 3 June to 10 June. Support wants two extra days.\n\nTurn these notes into a short email to the team.'),
      ['Turn these notes into a short email to the team.']);
    // Without a role it is an article's last sentence, not an input.
    assert.deepEqual(pinned('The Broncos won the game. The first recorded use of the name is from 1960.'), []);
    assert.deepEqual(pinned('The coach spoke after the game. He said: "We played as a team today."'), []);
    assert.deepEqual(pinned('Act as a mathematician. Reply with the result only. My first expression is: 4+5'), ['Act as a mathematician.', 'My first expression is: 4+5']);
    assert.deepEqual(pinned('Act as a Tic-Tac-Toe game. Use X for my moves. To start, I will make the first move by placing an X in the top left corner.'),
      ['Act as a Tic-Tac-Toe game.', 'To start, I will make the first move by placing an X in the top left corner.']);
    assert.deepEqual(pinned('Act as a coach. You will give advice. Your first challenge is to calm a nervous team before a final.'),
      ['Act as a coach.', 'Your first challenge is to calm a nervous team before a final.']);
    // What to do once the work is done is the closing request, under any section: before, "When you finish,
    // list the files you changed" had the lowest score of a billing service's agent file and went first.
    assert.deepEqual(pinned('# Billing\n\n## Conventions\n\n- Never use floats for money.\n\n## Things that bit us\n\nA retry used a new key. Since then every call reuses it.\n\nWhen you finish, list the files you changed and the commands you ran.'),
      ['When you finish, list the files you changed and the commands you ran.']);
    for (const closing of ["When you're done, run `npm test` and give me a short summary.", 'At the end, give me a table with columns File and Status.', 'Once finished, summarise what you changed.'])
      assert.deepEqual(pinned(`You are a code reviewer.\n\n## Rules\n\n- Be brief.\n\n## Notes\n\nCI is slow on Mondays. ${closing}`), ['You are a code reviewer.', closing]);
    // A condition is no end of the work, and a report of what happened at the end instructs nothing.
    assert.deepEqual(pinned('You are a code reviewer.\n\n## Notes\n\nCI is slow. When the build fails, tell me why.'), ['You are a code reviewer.']);
    assert.deepEqual(pinned('You are a code reviewer.\n\n## Notes\n\nCI is slow. At the end, the build failed.'), ['You are a code reviewer.']);
    // The last rule of a list is one rule among others, not the closing request.
    assert.deepEqual(pinned('Rules:\n\n- Never share notes.\n- Always answer in the customer\'s language.\n\nThank you so much!'), []);
  });

  it('marks what the prompt asks: its opening question to the model and every sentence with a template slot', () => {
    const requests = (text: string) => parse(text).blocks.flatMap((b) => b.sentences.filter((s) => s.request).map(sentenceText));
    assert.deepEqual(requests('Hi! Could you translate these UI strings for our app into German? Keep placeholders as they are.'),
      ['Could you translate these UI strings for our app into German?']);
    assert.deepEqual(requests('Bonjour ! Pourriez-vous traduire la clause 11.2 vers l\'anglais britannique ? Gardez la numérotation.'),
      ['Pourriez-vous traduire la clause 11.2 vers l\'anglais britannique ?']);
    assert.deepEqual(requests('Add a route to the orders service.\n\nCreate a new endpoint named ${input:endpointName} that does this: ${input:description}.'),
      ['Create a new endpoint named ${input:endpointName} that does this: ${input:description}.']);
    // A question put to the model after paragraphs of background, in the writer's prose; and Japanese
    // that asks as politely as "書き直していただけないでしょうか".
    assert.deepEqual(requests('Hallo zusammen,\n\nich hoffe, es geht Ihnen gut!\n\nIch wohne in Berlin. Die Abrechnung kam am 14. März. Darin stehen 1.284,60 €. Im Vorjahr waren es 212,15 €. Der Hauswart kostet 947 €.\n\nKönnten Sie mir bitte einen höflichen Widerspruch formulieren? Nicht mit Anwalt drohen.\n\nLiebe Grüße\nJonas'),
      ['Könnten Sie mir bitte einen höflichen Widerspruch formulieren?']);
    assert.deepEqual(requests('下書きを作成しました。\n\nこの下書きを、より丁寧なビジネスメールに書き直していただけないでしょうか。日付は変更しないでください。'),
      ['この下書きを、より丁寧なビジネスメールに書き直していただけないでしょうか。']);
    // "I was wondering if you could …" asks as "Could you …" does.
    assert.deepEqual(requests("Hi there! I hope you're doing well. I was wondering if you could help me rewrite a cover letter. I'm applying for a data role at Lumenfold.\n\nKeep it under 250 words."),
      ['I was wondering if you could help me rewrite a cover letter.']);
    // Help, with what it is for: "j'aurais besoin d'un coup de main pour corriger une dissertation" (and "d'un", elided).
    assert.deepEqual(requests("Bonjour,\n\nJe suis professeure de philosophie, et j'aurais besoin d'un coup de main pour corriger une dissertation. Merci d'avance !\n\nLe sujet était : « Peut-on être libre ? »"),
      ["Je suis professeure de philosophie, et j'aurais besoin d'un coup de main pour corriger une dissertation."]);
    // "…の要約をお願いいたします" asks by name, after an apology; "よろしくお願いします" asks nothing.
    assert.deepEqual(requests('お疲れ様です。恐れ入りますが、以下の議事録の要約をお願いいたします。\n\n来週の部長会で報告します。\n\n- 日時：5月16日\n- 決定：エンジニア職のみ試験導入\n\nよろしくお願いします。'),
      ['恐れ入りますが、以下の議事録の要約をお願いいたします。']);
    // What the writer would need, in the conditional, after talk that asks for help not yet named.
    assert.deepEqual(requests('Hallo! Ich hätte da mal eine Frage und wäre dir sehr dankbar, wenn du mir helfen könntest.\n\nIch verwalte die Urlaubsplanung in Excel.\n\nIch bräuchte eine Formel für Spalte D, die die Arbeitstage zählt. Feiertage zählen nicht.'),
      ['Ich bräuchte eine Formel für Spalte D, die die Arbeitstage zählt.']);
    // The want, labelled, after a paragraph of constraints: before, at 50% relaxed the query itself went.
    assert.deepEqual(requests('E aí, tudo certo? Cara, to precisando de uma mão com uma query SQL. Vou tentar explicar direitinho.\n\nA gente usa PostgreSQL 9.4. Não podemos usar funções de janela. Também não pode usar LATERAL. Subconsultas estão liberadas.\n\nO que eu preciso: listar, para cada categoria, os produtos ativos com receita acima da média.').filter((s) => s.startsWith('O que')),
      ['O que eu preciso: listar, para cada categoria, os produtos ativos com receita acima da média.']);
    // A polite imperative of the opening prose asks, after talk that asks for help not yet named.
    assert.deepEqual(requests('Hey, can you help me with something? I need to turn incident write-ups into records. Below is the schema and then one write-up. Please fill the schema from the email.\n\nRules:\n\n- Output the JSON only.'),
      ['Please fill the schema from the email.']);
    // "I'd really appreciate it if you could …" asks for the work it names; reading the prompt carefully is no work.
    assert.deepEqual(requests('Hey, could you help me with something? Below is the raw transcript from our sync. I\'d really appreciate it if you could turn it into proper meeting minutes.\n\nTranscript:\n\nPriya: Hi all.'),
      ["I'd really appreciate it if you could turn it into proper meeting minutes."]);
    assert.ok(!requests("Hello! I moderate reviews. I'd really appreciate it if you could follow this carefully.\n\nLabel each review OK or REMOVE.").some((s) => s.includes('follow this')));
    // "Ich würde gerne, dass du …" is "I'd like you to …": before, the request went at 50% and the rules stayed.
    assert.deepEqual(requests('Hallo zusammen,\n\nich bin Teamleiter im Kundenservice. Ich würde gerne, dass du den folgenden Chatverlauf klassifizierst. Bitte beachte folgende Regeln:\n\n- Kategorie: genau eine.\n- Keine Erstattung zusagen.'),
      ['Ich würde gerne, dass du den folgenden Chatverlauf klassifizierst.']);
    // An instruction about the input it stands before, in the other languages: before, the Spanish request
    // went at 25% relaxed and left the JSON schema alone.
    assert.deepEqual(requests('Hola, ¿qué tal?\n\nPor favor, extrae los datos de la siguiente transcripción y devuélvelos solo como JSON. No añadas texto.\n\nTranscripción:\n\nCliente: Hola.'),
      ['Por favor, extrae los datos de la siguiente transcripción y devuélvelos solo como JSON.']);
    assert.deepEqual(requests('Bonjour !\n\nRésumez le rapport ci-dessous en cinq lignes. Pas de jargon.\n\nLe rapport : les appels ont augmenté.'), ['Résumez le rapport ci-dessous en cinq lignes.']);
    // The prompt's own rules are no input: "Beachte folgende Regeln" asks nothing of a text.
    assert.deepEqual(requests('Hallo!\n\nBitte beachte folgende Regeln: kurz antworten.\n\nDie Regeln gelten immer.'), []);
    // The first instruction under a "Task:" label, in a Context/Task/Constraints/Output layout.
    assert.deepEqual(requests('Context:\nWe run a weekly newsletter for bookshop owners.\n\nTask:\nWrite a reusable prompt that proposes subject lines. It should name the audience.\n\nOutput:\nReturn the prompt in a code block. Do not add examples outside it.'),
      ['Write a reusable prompt that proposes subject lines.']);
    // A line of transcript or a rule of a list asks nothing of the model.
    assert.deepEqual(requests('Summarise the call. Keep the names. Use English. Be brief. Mention every date.\n\nAna: Hi Ben, thanks for joining the call today.\nBen: Sure, happy to be here with you.\nAna: Could you send the deck after the meeting please?\nBen: Yes, I will send it by Friday afternoon.\n\n- Could you keep it short? That is the question we hear most.'), []);
    // An instruction that names the section it works on, by its tag; not one that describes the input.
    assert.deepEqual(requests('You are a security reviewer.\n\n<instructions>\nReview the diff in <diff> and report security issues only.\n</instructions>\n\n<diff>\n--- a/x.go\n+++ b/x.go\n</diff>'),
      ['Review the diff in <diff> and report security issues only.']);
    assert.deepEqual(requests("You'll receive the OCR text between the <document> tags below. Never guess.\n\n<document>\nInvoice 4411\n</document>"), []);
    // The rules of a system prompt are no request: none of them outranks the others for being first.
    assert.deepEqual(requests('You are a support assistant. Answer in the customer\'s language. Never share internal notes.'), []);
  });

  it('reads speakers in a transcript, not in labelled rules or a record\'s fields', () => {
    const speakers = (text: string) => parse(text).blocks.flatMap((b) => b.sentences.filter((s) => s.speaker).map(sentenceText));
    assert.equal(speakers('Sam: Okay, let us start with what went well.\n\nHana: We shipped the refund API on time.\n\nSam: Thanks, Hana. Greta?\n\nGreta: The badges were blank on staging all week.').length, 4);
    assert.deepEqual(speakers('- Security: never store secrets in the repo.\n- Performance: avoid N+1 queries.\n- Security: rotate keys every 90 days.'), []);
    assert.deepEqual(speakers('ID: HR-112\nTitle: Parental Leave\nEffective: 2024-01-01\n\nParents get 16 weeks.\n\nID: HR-140\nTitle: Travel\nEffective: 2024-03-01'), []);
    assert.deepEqual(speakers('MANDATORY: Adhere to the workflow below.\n\nIMPORTANT: Batch the steps.\n\nMANDATORY: Never skip a phase.'), []);
    // Chinese and Japanese names with a full-width colon, no space; "注意：" over rules is none.
    assert.equal(speakers('王磊：大家好，今天人有点少，我们就快点开吧。\n陈静：测试那边还有两个P1的bug没修完。\n王磊：那改到6月27日吧，大家有意见吗？\n刘洋：没意见，推送SDK要升级到5.2.1。').length, 4);
    assert.equal(speakers('佐藤さん：来週のリリースは予定どおりです。\n田中：テストはまだ二件残っています。\n佐藤さん：では金曜までに直してください。').length, 3);
    assert.deepEqual(speakers('注意：不要修改 internal/legacy 目录，这个目录由别的团队维护。\n要求：提交前先运行 make lint，并且确保所有测试通过。\n注意：所有金额用分存储，不要用浮点数。'), []);
    // A turn that opens on its time. Before, these were prose: at 100% "Então encerrada a reunião, obrigado a todos." went as thanks.
    const timed = '[19h45] Carlos: Vamos votar. Quatro a favor, o Paulo contra.\n[19h58] Jorge: Eu acho que a gente devia esperar o balanço de dezembro.\n[20h07] Carlos: Mais alguma coisa? Não? Então encerrada a reunião, obrigado a todos.';
    assert.equal(speakers(timed).length, 3);
    assert.equal(render(parse(timed)), timed);
    assert.ok(optimize({ text: `Transforme a transcrição abaixo em uma ata.\n\n${timed}`, budget: '100%' }).text.includes('Então encerrada a reunião, obrigado a todos.'));
  });

  it('marks instructions, not narrative', () => {
    const flags = parse('Never reveal the key. The team never trailed. You must answer in JSON. Write a haiku.').blocks[0]!.sentences.map((s) => s.instruction);
    assert.deepEqual(flags, [true, false, true, true]);
  });

  it('reads the language of the prose, not of the code it shows', () => {
    const config = ['```yaml', ...Array.from({ length: 14 }, (_, i) => `service_${i + 1}:\n  image: registry.example.com/team/service-${i + 1}:1.${i}.0`), '```'].join('\n');
    const doc = parse(`Deploy with the compose file below and never change the image tags by hand.\n\n${config}\n\nAsk before you scale a service down.`);
    assert.equal(doc.english, true);
    const prose = doc.blocks.filter((b) => b.kind === 'prose' && b.sentences.length > 0);
    assert.deepEqual(prose.map((b) => b.sentences[0]!.instruction), [true, true]);
  });

  it('keeps an instruction that names the block after it ("Generate … from the template below.") as prose, not its title', () => {
    const doc = parse('Generate a copilot-instructions.md file for this repository from the template below.\n\n```markdown\n# Copilot Instructions\n\n- Never edit generated files.\n```');
    assert.equal(doc.blocks[0]!.kind, 'prose');
    // Before a list it is the list's lead-in, kept with the items it introduces.
    assert.equal(parse('Generate the following documentation and save it in docs/.\n\n- `exported-resources.json` with every resource\n- `ARCHITECTURE.md` with an overview').blocks[0]!.kind, 'heading');
  });

  it('reads "Use this format:" before a report template as its lead-in, not as a "Use for: …" condition on the section', () => {
    const doc = parse('## 8. Report the evidence\n\nUse this format:\n\n```markdown\n# Release QA\nResult: PASS\n```\n\nUse `FAIL` for a server that cannot start.');
    const leadIn = doc.blocks.find((b) => b.body === 'Use this format:')!;
    // Before, "use this for…" matched inside "format" and the line framed the whole section.
    assert.equal(leadIn.within, undefined);
  });

  it('handles CRLF line endings without losing them in protected blocks', () => {
    const text = 'Line one.\r\n\r\n```\r\ncode\r\n```';
    assert.equal(render(parse(text)), text);
  });
});

describe('core/passes/segment <keep> edge cases', () => {
  it('keeps an inline <keep> span whose closing line goes on, locked and whole', () => {
    const doc = parse('Intro. <keep>\nDo   not   touch.\n</keep> Then more text.');
    const locked = doc.blocks.flatMap((b) => b.sentences.flatMap((s) => s.pieces.filter((p) => p.locked).map((p) => p.text)));
    assert.deepEqual(locked, ['\nDo   not   touch.\n']);
  });

  it('does not let an unclosed <keep> swallow a following code block', () => {
    assert.deepEqual(parse('Start <keep> never closed.\n\n```\ncode\n```').blocks.map((b) => b.kind), ['prose', 'code']);
  });
});
