import { strict as assert } from 'node:assert';
import { CONTRACTIONS, OPENERS, REWRITES } from '../../../src/core/data/rewrites';
import { FILLER_WORDS } from '../../../src/core/data/asides';
import { hasConstraint } from '../../../src/core/scoring/rules';
import { rewrite } from '../../../src/core/passes/rewrite';
import { through, tokenizer } from '../helpers';

const RESTRICTIONS = /\b(not|no|never|none|nor|only|must|except|unless|without|cannot|can't|don't|doesn't|won't|shouldn't|mustn't|at most|at least|exactly|always)\b/i;

describe('core/passes/rewrite', () => {
  const rw = (text: string) => through(text, [rewrite]);

  it('has at least 150 entries, each unique', () => {
    assert.ok(REWRITES.length >= 150, `only ${REWRITES.length} entries`);
    const keys = REWRITES.map(([from]) => from.toLowerCase());
    assert.equal(new Set(keys).size, keys.length);
  });

  const ALL = [...REWRITES, ...CONTRACTIONS, ...OPENERS];
  // A contraction keeps its negation: "do not" → "don't", "cannot" → "can't".
  const expand = (text: string) => text.toLowerCase().replace(/\bcan(?:'t|not)\b/g, 'can not').replace(/\bwon't\b/g, 'will not').replace(/n't\b/g, ' not');

  it('every entry saves tokens in o200k_base', () => {
    const wasteful = ALL.filter(([from, to]) => tokenizer.count(` ${to}`.trimEnd()) >= tokenizer.count(` ${from}`));
    assert.deepEqual(wasteful, []);
  });

  it('no entry removes or weakens a negation or restriction', () => {
    const weakening = ALL.filter(([from, to]) => {
      const lost = (expand(from).match(new RegExp(RESTRICTIONS, 'gi')) ?? []).map((w) => w.toLowerCase());
      return lost.some((w) => !expand(to).includes(w));
    });
    assert.deepEqual(weakening, []);
  });

  it('contracts no verb that ends its clause before an adverb ("no matter how good it is otherwise.")', () => {
    // Before: "no matter how good it's otherwise", which no one writes.
    assert.equal(
      rw('Reject it, no matter how good it is otherwise. It is here, and it is fine. It is too big.'),
      "Reject it, no matter how good it is otherwise. It's here, and it's fine. It's too big.",
    );
  });

  it('keeps an intensifier that softens a negation: "not very technical" is not "not technical"', () => {
    // Before, "Our customers are not very technical" became "Our customers aren't technical".
    assert.equal(
      rw('Our customers are not very technical. The answer is not really clear. Das ist nicht wirklich wichtig. Ce n\'est pas vraiment urgent. Be very careful.'),
      "Our customers aren't very technical. The answer isn't really clear. Das ist nicht wirklich wichtig. Ce n'est pas vraiment urgent. Be careful.",
    );
  });

  it('drops sign-offs and thanks in six languages that trial prompts left at 100%', () => {
    const cases: [string, string][] = [
      ['Hello, agent! Run the tests before you commit. Happy coding!', 'Run the tests before you commit.'],
      ["Summarise the report in five bullets. I'd be grateful.", 'Summarise the report in five bullets.'],
      ["I'd be grateful if you could summarise the report.", "I'd be grateful if you could summarise the report."],
      ["Bonjour ! J'espère que tu vas bien. Résume ce rapport en cinq points.", 'Résume ce rapport en cinq points.'],
      ['Resuma o relatório em cinco pontos. Seria ótimo se você pudesse me ajudar com isso.', 'Resuma o relatório em cinco pontos.'],
      ["Fasse den Bericht in fünf Punkten zusammen. Ich denke, das war's so weit.", 'Fasse den Bericht in fünf Punkten zusammen.'],
      ['Resume o contrato em cinco pontos. Acho que é tudo, mas se tiveres alguma dúvida diz-me!', 'Resume o contrato em cinco pontos.'],
      ['報告書を5点にまとめてください。以上です。', '報告書を5点にまとめてください。'],
      // "以上" after a number is "or more": a fact.
      ['納期は3日以上です。報告書を5点にまとめてください。', '納期は3日以上です。報告書を5点にまとめてください。'],
    ];
    for (const [input, expected] of cases) assert.equal(rw(input), expected);
  });

  it('drops the hedges and sign-offs a later round of trial prompts left at 100%, in seven languages', () => {
    const cases: [string, string][] = [
      ['Summarise the report in five bullets. Any help would be wonderful. I think that\'s probably everything.', 'Summarise the report in five bullets.'],
      ['Fasse den Bericht zusammen. Ich hoffe, das passt so. Vielen Dank, ich bin echt gespannt, ob das klappt!', 'Fasse den Bericht zusammen.'],
      ['Resume el informe. Si algo no queda claro, dímelo y lo aclaro. No sé si funcionará, pero probamos.', 'Resume el informe.'],
      ["Résume le rapport. Voilà, je crois que c'est tout ! Et merci beaucoup pour ton aide, j'ai hâte de voir le résultat !", 'Résume le rapport.'],
      ['Resuma o relatório. Não sei se vai funcionar direitinho, mas vamos tentar, né?', 'Resuma o relatório.'],
      ['请总结这份报告。可能写得有点啰嗦，请多担待。以上就是全部内容啦。', '请总结这份报告。'],
      ['報告書を要約してください。まだ粗削りかもしれませんが、よろしくお願いします。', '報告書を要約してください。'],
      // What the writer says of the text to read stays: "Résume le rapport, si tu vois …" is the request.
      ['Résume le rapport, si tu vois ce que je veux dire.', 'Résume le rapport, si tu vois ce que je veux dire.'],
    ];
    for (const [input, expected] of cases) assert.equal(rw(input), expected);
  });

  it('keeps a line that introduces what follows, whatever hope it voices', () => {
    // Before, at 100% the line went whole and the quoted question after it lost its label.
    assert.match(rw('Answer from the policy only. Okay, so here is the question from the employee, I hope it makes sense:'), /question from the employee/);
  });

  it('keeps thanks that go on to say what to keep in mind ("Gracias por todo, y recuerda que …")', () => {
    // Before, at 100% the whole sentence went as an aside, and with it what matters most.
    for (const text of [
      'Responde siempre en español. Gracias por todo, y recuerda que lo más importante es que el empleado se sienta escuchado.',
      'Réponds toujours en français. Merci beaucoup, et rappelle-toi que le plus important est que le client se sente écouté.',
      'Antworte immer auf Deutsch. Danke dir, und denk daran: das Wichtigste ist, dass der Kunde sich verstanden fühlt.',
    ])
      assert.equal(rw(text), text);
  });

  it('removes the filler words of German, Spanish, French and Portuguese: each saves tokens and none restricts', () => {
    for (const word of FILLER_WORDS) {
      assert.ok(tokenizer.count(` ${word}`) > 0, word);
      assert.ok(!hasConstraint(word), `${word} restricts`);
    }
    for (const [text, expected] of [
      ['Bitte lagere alle sichtbaren Texte aus der aktuellen Komponente aus.', 'Lagere alle sichtbaren Texte aus der aktuellen Komponente aus.'],
      // Thanks beside a request stay (the aside guard reads the "bitte"); the particle itself goes.
      ['Danke, bitte antworte auf Deutsch und fasse dich kurz.', 'Danke, antworte auf Deutsch und fasse dich kurz.'],
      ['Die Geschäftsführung liest wirklich nur die Empfehlung, also bitte nicht doppelt berücksichtigen.', 'Die Geschäftsführung liest nur die Empfehlung, also nicht doppelt berücksichtigen.'],
      ['Beende jede Nachricht mit bitte und danke, in dieser Reihenfolge.', 'Beende jede Nachricht mit bitte und danke, in dieser Reihenfolge.'],
      // The noun stays: "eine Bitte" is a request, not a particle.
      ['Ich habe eine Bitte an euch: bewertet nur den heutigen Stand der Tabelle.', 'Ich habe eine Bitte an euch: bewertet nur den heutigen Stand der Tabelle.'],
      ['Responde siempre en español, por favor.', 'Responde siempre en español.'],
      ['Por favor, no uses tablas en la respuesta final.', 'No uses tablas en la respuesta final.'],
      ["Traduisez cette clause en anglais britannique, s'il vous plaît.", 'Traduisez cette clause en anglais britannique.'],
      ['Mantenha o tom realmente profissional, por favor.', 'Mantenha o tom profissional.'],
      // "As you can imagine" goes with both its commas.
      ['Das ist, wie ihr euch vorstellen könnt, nicht so ideal für das Team.', 'Das ist nicht so ideal für das Team.'],
      ['La reunión fue, como te puedes imaginar, bastante larga.', 'La reunión fue bastante larga.'],
      ["Le client est, comme vous pouvez l'imaginer, assez pressé.", 'Le client est assez pressé.'],
      ['O prazo é, como você pode imaginar, apertado.', 'O prazo é apertado.'],
    ] as const)
      assert.equal(rw(text), expected);
  });

  it('leaves a prompt that is nothing but courtesy as is, and drops courtesy beside anything else', () => {
    for (const text of ['hi', 'Thanks!', 'Thank you so much.', 'Hi! Thanks in advance.', 'hi\n\nthanks']) assert.equal(rw(text), text);
    assert.equal(rw('Thanks! Fix the bug in foo().'), 'Fix the bug in foo().');
    assert.equal(rw('Thanks!\n\nnpm test is the command.'), 'npm test is the command.');
  });

  it('never drops the request a thanks is attached to, in any language', () => {
    // Before, each of these requests went whole at a budget the prompt fits: the thanks made it an aside.
    assert.equal(rw('Could you review this, thanks so much! The code is below.'), 'Could you review this, thanks so much! The code is below.');
    assert.equal(rw('Would you write the release notes, thank you! The changes are below.'), 'Would you write the release notes, thank you! The changes are below.');
    // Chinese and Japanese lose the thanks as a clause of their own.
    assert.equal(rw('你好！麻烦帮我写一个 Python 脚本，谢谢！要求：读取 CSV 文件。'), '麻烦帮我写一个 Python 脚本！要求：读取 CSV 文件。');
    assert.equal(rw('大家好，帮我看一下这段代码，谢谢！代码如下。'), '帮我看一下这段代码！代码如下。');
    assert.equal(rw('ありがとうございます、議事録の要約をお願いします。内容は以下です。'), '議事録の要約をお願いします。内容は以下です。');
    assert.equal(rw('Danke, kannst du mir das Skript schreiben? Es liest eine CSV-Datei.'), 'Danke, kannst du mir das Skript schreiben? Es liest eine CSV-Datei.');
    assert.equal(rw('Gracias, ¿puedes revisar el handler? Está abajo.'), 'Gracias, ¿puedes revisar el handler? Está abajo.');
    // Nor what the writer needs, said beside an apology or thanks.
    for (const text of ['Sorry to bother you, but I need help with a rental contract I am signing next week.', 'Thanks in advance, I need a summary of the meeting notes below for the board.',
      'Desculpa mandar isso assim do nada, mas preciso de ajuda com um contrato de aluguel que vou assinar semana que vem.', 'Entschuldigung für die Störung, aber ich brauche Hilfe bei einem Mietvertrag.'])
      assert.match(rw(`${text} Here it is.`), /(?:need|preciso|brauche)/, text);
    // Thanks and talk about the prompt alone still go.
    assert.equal(rw('Could you let me know if anything is unclear, thanks! Run the tests.'), 'Run the tests.');
    assert.equal(rw('大家好，先谢谢了！代码如下。'), '代码如下。');
    assert.equal(rw("That's all I need, thanks! Run the tests."), 'Run the tests.');
    // Keigo that asks nothing yet goes; "いただけ" is no "だけ" ("only") that would make it a rule.
    assert.equal(rw('お忙しいところ恐れ入りますが、ご相談させていただけますでしょうか。\n\n来週、メールを送る必要があります。'), '来週、メールを送る必要があります。');
  });

  const examples: [string, string][] = [
    ['In order to pass, run the tests.', 'To pass, run the tests.'],
    ['I want you to act as a linux terminal.', 'Act as a linux terminal.'],
    ['Please, write a poem.', 'Write a poem.'],
    ['Could you please summarize this text?', 'Summarize this text.'],
    ['It failed due to the fact that the disk was full.', 'It failed because the disk was full.'],
    ['This is really very important.', 'This is important.'],
    ['Please note that the API is slow.', 'Note: the API is slow.'],
    ['You should keep in mind that it is slow.', "Note: it's slow."],
    ['We think you should keep in mind that it is slow.', "We think you should keep in mind that it's slow."],
    ['IN ORDER TO WIN, PLAY.', 'TO WIN, PLAY.'],
    ['Do not, under any circumstances, delete files.', 'Do not, under any circumstances, delete files.'],
    ['Thank you very much! Run the tests.', 'Run the tests.'],
    ['My first request is "hello world".', 'First request: "hello world".'],
    ['Request 1: please shorten this text.', 'Request 1: Shorten this text.'],
    ['Also, it would be really great if you could kindly avoid jargon.', 'Also, avoid jargon.'],
    ['Basically, what I would really like you to do is to please write a summary.', 'Write a summary.'],
    ['Thank you so much in advance for your help with this, I really do appreciate it!\n\nRun the tests.', 'Run the tests.'],
    ['Hello there! Summarize the text. Thanks in advance!', 'Summarize the text.'],
    ['Keep it short, if that is at all possible.', 'Keep it short.'],
    ['Meet people where they are, if that makes sense.', 'Meet people where they are.'],
    // A word named, not used, stays: the reply must hold it.
    ['End every message with please and thank you, in that order.', 'End every message with please and thank you, in that order.'],
    // The writer talking about themself, to the reader: dropped whole, only where nothing follows.
    ["Hi there, so here's what I'm working on. Fix the bug.", 'Fix the bug.'],
    ['Hello Copilot! Use Kotlin for every new file in this project.', 'Use Kotlin for every new file in this project.'],
    ['Hi team. Use Kotlin.', 'Use Kotlin.'],
    ["Just a few things about this project, I'll try to keep it short. Use Kotlin.", 'Use Kotlin.'],
    ['Okay, so, context first, because I think it helps. We ship on Fridays.', 'We ship on Fridays.'],
    ['Tests use JUnit. Not sure if that matters for you, but just so you know.', 'Tests use JUnit.'],
    ['I think I tend to ramble, as you can probably tell from this message. Be brief.', 'Be brief.'],
    ['Just so you know, we deploy on Fridays.', 'Just so you know, we deploy on Fridays.'],
    ['Context first: we deploy on Fridays.', 'Context first: we deploy on Fridays.'],
    // Hedges go first, so they cannot hide the longer phrase; the first word left opens the sentence.
    ['It would be really great if you could please take a careful look.', 'Take a careful look.'],
    ['Thank you so much in advance for your time and your help, I really do appreciate it! Fix it.', 'Fix it.'],
    ['In order to make it easier for you, here is what I would like you to do, if at all possible:', "Here's what to do:"],
    ['I hope you are doing well. Fix the bug.', 'Fix the bug.'],
    ['I was wondering if you could possibly help me out with something. Fix the bug.', 'Fix the bug.'],
    ['Thanks to the new cache, builds are fast.', 'Thanks to the new cache, builds are fast.'],
    // Only where it opens the sentence: after "and" the subject of "research" would become "I".
    ['Your task is to research both sides.', 'Research both sides.'],
    ['I will give you topics and your task is to research both sides.', "I'll give you topics and your task is to research both sides."],
    ['I will ask you questions, and your goal is to help the owner.', "I'll ask you questions, and your goal is to help the owner."],
    // "will be able to" is a future, "can" a permission: no shorter wording says the same.
    ['You will be able to add documents later.', "You'll be able to add documents later."],
    // No label where an infinitive follows, no imperative where the modal carries a negated second verb.
    ['My first command is to give an example.', 'My first command is to give an example.'],
    ['You should only provide information and not solve problems.', 'You should only provide information and not solve problems.'],
    ['You should only provide information.', 'Only provide information.'],
    // "devise an engaging article" is no sentence a person writes.
    ['You will come up with an engaging article.', "You'll come up with an engaging article."],
    // The colon the user wrote is the one the short form ends with.
    ['My first request is: give me an image of a red circle.', 'First request: give me an image of a red circle.'],
  ];
  for (const [input, expected] of examples) {
    it(`rewrites ${JSON.stringify(input)}`, () => assert.equal(rw(input), expected));
  }

  const contracted: [string, string][] = [
    ['I will give you a word and you will reply with its meaning.', "I'll give you a word and you'll reply with its meaning."],
    ['Do not explain. You are not allowed to skip steps.', "Don't explain. You're not allowed to skip steps."],
    // Emphasis stays as written.
    ['DO NOT EXPLAIN.', 'DO NOT EXPLAIN.'],
    ['You do NOT need to wait.', 'You do NOT need to wait.'],
    ['Do not wait.', "Don't wait."],
    // Only where another word follows: a contraction cannot end a clause.
    ['Tell me where you are. Yes, I will.', 'Tell me where you are. Yes, I will.'],
    ['That is, the input.', 'That is, the input.'],
    // Phrases first: "I would" must not turn into "I'd" before the longer phrase matches.
    ['What I would really like you to do is to write a summary.', 'Write a summary.'],
  ];
  for (const [input, expected] of contracted) {
    it(`contracts ${JSON.stringify(input)}`, () => assert.equal(rw(input), expected));
  }

  const openers: [string, string][] = [
    ['You should only reply with the code.', 'Only reply with the code.'],
    ['Be brief. You should not explain.', "Be brief. Don't explain."],
    // Not the verb of an instruction, or not opening the sentence: kept.
    ['You should have received a file.', 'You should have received a file.'],
    ['I think you should go.', 'I think you should go.'],
  ];
  for (const [input, expected] of openers) {
    it(`turns an opener into the imperative: ${JSON.stringify(input)}`, () => assert.equal(rw(input), expected));
  }

  it('never rewrites inside protected spans', () => {
    assert.equal(rw('Print "in order to" and `please` verbatim.'), 'Print "in order to" and `please` verbatim.');
  });

  it('rewrites text that is not English only by its own closed list of filler words, never by the English phrases', () => {
    const german = 'Bitte schreiben Sie einen kurzen Text über das Wetter in Berlin. Der Text soll freundlich sein, in order to gefallen.';
    assert.equal(rw(german), 'Schreiben Sie einen kurzen Text über das Wetter in Berlin. Der Text soll freundlich sein, in order to gefallen.');
  });

  // Asides in other languages go whole; a sentence that also asks, limits or quotes, or narrates, stays.
  const foreign: [string, string][] = [
    ['Hallo zusammen! Fasse das Protokoll zusammen. Vielen lieben Dank!', 'Fasse das Protokoll zusammen.'],
    ['Resume el acta. ¡Mil gracias de antemano! No sé si me explico bien, pero bueno.', 'Resume el acta.'],
    ["Bonjour ! Résume le compte rendu. Merci d'avance, et bon courage !", 'Résume le compte rendu.'],
    ['Oi, tudo bem? Resuma a ata. Qualquer dúvida é só falar.', 'Resuma a ata.'],
    ['お疲れ様です。議事録を要約してください。よろしくお願いいたします。', '議事録を要約してください。'],
    ['你好，打扰一下！请总结会议记录。辛苦了，非常感谢！', '请总结会议记录。'],
    ['各位大佬好，打扰一下，想请教一个问题，先谢谢了！请总结会议记录。说实话我对这块不是很熟，见谅。', '请总结会议记录。'],
    ['Fasse das Protokoll zusammen. Ich hoffe, das ist jetzt nicht zu viel auf einmal.', 'Fasse das Protokoll zusammen.'],
    ["Résume le compte rendu. Si jamais ça peut aider, n'hésitez pas à poser des questions.", 'Résume le compte rendu.'],
    ["Pas de titres. Si vous pensez que c'est plus clair autrement, on en rediscute, hein.", 'Pas de titres.'],
    ["Si le client n'est pas d'accord, on en discute avec le gestionnaire avant toute réponse.", "Si le client n'est pas d'accord, on en discute avec le gestionnaire avant toute réponse."],
    // Sign-offs and well-wishes of a message.
    ['Fasse das Protokoll zusammen. Liebe Grüße, Jonas', 'Fasse das Protokoll zusammen.'],
    ['Resume el acta. Un abrazo.', 'Resume el acta.'],
    ['Résume le compte rendu. Cordialement,', 'Résume le compte rendu.'],
    ['Resuma a ata. Desde já agradeço!', 'Resuma a ata.'],
    ['请总结会议记录。先谢过了！', '请总结会议记录。'],
    ['请总结会议记录。辛苦了，非常感谢！\n\n有空请你喝奶茶～', '请总结会议记录。'],
    // "As I said" restates; "I know it seems obvious" and "hoping it's not too messy" talk about the prompt.
    ['Frag nicht nach Adressen. Das ist wie gesagt echt wichtig wegen Datenschutz und so.', 'Frag nicht nach Adressen.'],
    ["Stockez les montants en centimes. Je sais que ça paraît évident, mais on a déjà eu le cas, donc je préfère le redire.", 'Stockez les montants en centimes.'],
    ["Bonjour à tous, je mets ici quelques consignes, en espérant que ce ne soit pas trop brouillon. Utilisez Python 3.12.", 'Utilisez Python 3.12.'],
  ];
  for (const [input, expected] of foreign) it(`drops the asides of ${JSON.stringify(input)}`, () => assert.equal(rw(input), expected));

  const kept = [
    'Gracias, pero no uses tablas en la respuesta.',
    'Danke, aber antworte nur auf Deutsch und fasse dich kurz.',
    'Merci de répondre en français et de garder la numérotation.',
    'Abaixo está a transcrição da reunião (meio bagunçada, desculpa).',
    'Gracias a su esfuerzo, el equipo ganó la liga aquel año.',
    'Ele acreditava sinceramente que o plano funcionaria no inverno.',
    'Le salut de la ville dépendait de ses remparts et de ses alliés.',
    // A clause that limits, quotes a code or states a fact about the team stays, hedged or not.
    '我们不太确定数据是否完整，所以先检查一下。',
    '念のため、バックアップを取ってから実行してください。',
    '自信がない場合は「不明」と答えてください。',
  ];
  for (const sentence of kept) it(`keeps ${JSON.stringify(sentence)}`, () => assert.equal(rw(sentence), sentence));

  // In Chinese and Japanese an aside clause goes with its comma from a sentence that says something else.
  const clauses: [string, string][] = [
    ['上次有人写了个很慢的查询，所以，说实话我有点怕，希望先过滤再关联。', '上次有人写了个很慢的查询，所以，希望先过滤再关联。'],
    ['说实话，数据库不支持 CTE，见谅。', '数据库不支持 CTE。'],
    ['不好意思，回答时不要使用表格。', '回答时不要使用表格。'],
    ['大家好，不好意思又来麻烦了，这个需求领导催得比较急，请帮忙写一个 SQL。', '这个需求领导催得比较急，请帮忙写一个 SQL。'],
    ['谢谢，请用中文回答。', '请用中文回答。'],
    ['说实话，不要用子查询。', '不要用子查询。'],
    ['这个口径是财务定的，我也不太清楚为什么，照着来就行。', '这个口径是财务定的，照着来就行。'],
    ['うまく説明できているか自信がないのですが、以下の内容でお願いします。', '以下の内容でお願いします。'],
    ['念のためもう一度書いておくと、回答は必ず敬語でお願いします。', '回答は必ず敬語でお願いします。'],
    ['ちょっと長くなってしまいましたが、わからない質問には support@example.com を案内してください。', 'わからない質問には support@example.com を案内してください。'],
  ];
  for (const [input, expected] of clauses) it(`drops the aside clauses of ${JSON.stringify(input)}`, () => assert.equal(rw(input), expected));

  // A hedge or "as I said" that opens a sentence of another language goes alone when the rest says something.
  const openings: [string, string][] = [
    ['Sei lá, talvez um emoji no assunto, no máximo um por e-mail.', 'Talvez um emoji no assunto, no máximo um por e-mail.'],
    ['Ah, e só para reforçar o que eu já disse: não acrescente campos.', 'Não acrescente campos.'],
    ['Wie gesagt, antworte nur auf Deutsch.', 'Antworte nur auf Deutsch.'],
    // So does a greeting: the request or role after it stays (the whole sentence went before, at any budget).
    ['Hola, resume el acta en cinco puntos. Usa viñetas.', 'Resume el acta en cinco puntos. Usa viñetas.'],
    ['Hallo, fasse das Protokoll zusammen. Nutze Stichpunkte.', 'Fasse das Protokoll zusammen. Nutze Stichpunkte.'],
    ['Bonjour, résume le compte rendu. Utilise des puces.', 'Résume le compte rendu. Utilise des puces.'],
    ['Olá, resuma a ata em cinco pontos. Use marcadores.', 'Resuma a ata em cinco pontos. Use marcadores.'],
    ['Hola, quiero que actúes como guía turístico. Sugiere lugares.', 'Quiero que actúes como guía turístico. Sugiere lugares.'],
    ['Hallo, du bist ein Reiseführer. Schlage Orte vor.', 'Du bist ein Reiseführer. Schlage Orte vor.'],
    // A limit keeps the sentence it stands in: only its greeting goes.
    ['Bonjour, au plus deux paragraphes.', 'Au plus deux paragraphes.'],
    ['Hola, como máximo tres frases.', 'Como máximo tres frases.'],
    // A greeting that asks after the reader is still an aside, whole.
    ['Hallo, wie geht es dir? Fasse das Protokoll zusammen.', 'Fasse das Protokoll zusammen.'],
    ['Bonjour, ça va ? Résume le compte rendu.', 'Résume le compte rendu.'],
  ];
  for (const [input, expected] of openings) it(`drops the opening hedge of ${JSON.stringify(input)}`, () => assert.equal(rw(input), expected));

  it('keeps one comma where a parenthetical filler stood between two clauses', () => {
    assert.equal(rw("I don't need a list of everything that's okay, honestly, it just makes the report longer."), "I don't need a list of everything that's okay, it just makes the report longer.");
  });

  it('takes a parenthetical filler out with both its commas', () => {
    assert.equal(rw('I wrote it, and, honestly, I am terrible at this.'), "I wrote it, and I'm terrible at this.");
    assert.equal(rw('We, honestly, want a short answer.'), 'We want a short answer.');
    assert.equal(rw("Don't blame them, even though, honestly, it is their fault."), "Don't blame them, even though it's their fault.");
  });

  it('never contracts a verb that ends its clause: "who they are and what …"', () => {
    assert.equal(rw('Ask who they are and what they are looking for.'), "Ask who they are and what they're looking for.");
  });

  it('keeps the comma German needs before a subordinate clause where "bitte" goes', () => {
    // Before, "Prüfen Sie bitte, ob …" became "Prüfen Sie ob …".
    assert.equal(rw('Prüfen Sie bitte, ob die Zahlen stimmen.'), 'Prüfen Sie, ob die Zahlen stimmen.');
    assert.equal(rw('Sagen Sie mir, bitte, wenn etwas fehlt.'), 'Sagen Sie mir, wenn etwas fehlt.');
    assert.equal(rw('Schreib mir, bitte, eine Mail.'), 'Schreib mir eine Mail.');
    assert.equal(rw('Dime, por favor, si falta algo.'), 'Dime si falta algo.');
  });

  it('keeps the space French puts before "!" and "?" where a filler word goes', () => {
    // Before, "c'est vraiment gentil !" became "c'est gentil!".
    assert.equal(rw("Merci, c'est vraiment gentil ! Réécrivez le texte."), "Merci, c'est gentil ! Réécrivez le texte.");
    assert.equal(rw('Est-ce vraiment clair ? Relisez.'), 'Est-ce clair ? Relisez.');
    assert.equal(rw('This is really very important .'), 'This is important.');
  });

  it('keeps a hard-wrapped prompt\'s lines: a phrase broken across two lines stays as written', () => {
    // Before, "a passing unit test is\nnot runtime evidence" became "… test isn't runtime evidence" on one line.
    assert.equal(rw('A passing unit test is\nnot runtime evidence.'), 'A passing unit test is\nnot runtime evidence.');
    assert.equal(rw('You should make sure\nthat the tests pass.'), 'Make sure\nthat the tests pass.');
    // Within a line the same phrases are rewritten; the line break after them stays.
    assert.equal(rw('A unit test is not\nruntime evidence.'), "A unit test isn't\nruntime evidence.");
  });

  it('keeps the space before a word that starts with punctuation: "and .NET" stays', () => {
    assert.equal(rw('You are an assistant for SOLID principles, and .NET good practices.'), "You're an assistant for SOLID principles, and .NET good practices.");
  });

  it('ends a polite question turned into a request with a full stop: "Could you please ask me …?" → "Ask me …."', () => {
    assert.equal(rw('Could you please ask me for the statement?'), 'Ask me for the statement.');
    assert.equal(rw('Would you please review `a.ts`?'), 'Review `a.ts`.');
    assert.equal(rw('Could you tell me why it fails?'), 'Could you tell me why it fails?');
    // After a label or a list number too; before, "1. **Request for Input**: Ask me for the statement?".
    assert.equal(rw('1. **Request for Input**: Could you please ask me for the statement?'), '1. **Request for Input**: Ask me for the statement.');
    assert.equal(rw('Note: could you please keep the answer short?'), 'Note: Keep the answer short.');
    assert.equal(rw('Note: could you tell me why it fails?'), 'Note: could you tell me why it fails?');
  });

  it('leaves phrases whose short form can change what is meant', () => {
    // "as well as you can" compares; "A, B and C as well as D" scopes differently with "and".
    assert.equal(rw('Stay in character as well as you can.'), 'Stay in character as well as you can.');
    assert.equal(rw('Explain how to brush and floss as well as other methods of oral care.'), 'Explain how to brush and floss as well as other methods of oral care.');
    // "a wide range of language" is no "many language"; "feel free to" permits, it does not order.
    assert.equal(rw('You understand a wide range of language.'), "You understand a wide range of language.");
    assert.equal(rw('Feel free to be as imaginative as you like.'), 'Feel free to be as imaginative as you like.');
    // An aim is no order, and "be able to" no imperative.
    assert.equal(rw('Your goal is to guess the subject by asking yes/no questions.'), 'Your goal is to guess the subject by asking yes/no questions.');
    assert.equal(rw('You should be able to recommend techniques.'), 'You should be able to recommend techniques.');
    assert.equal(rw('My first suggestion request is "a quiet week in Lisbon".'), 'First suggestion request: "a quiet week in Lisbon".');
  });

  it('keeps an adverb that says how ("answer it honestly", "translate it literally"), drops it as filler where it opens a clause', () => {
    assert.equal(rw("If someone asks your age, answer it honestly, but don't share much."), "If someone asks your age, answer it honestly, but don't share much.");
    assert.equal(rw('Translate it literally.'), 'Translate it literally.');
    // "say so honestly": "so" stands for what is said; before, "honestly" went as if "so" opened a clause.
    assert.equal(rw("If you don't know, say so honestly and offer a ticket."), "If you don't know, say so honestly and offer a ticket.");
    assert.equal(rw('It is late, so honestly we can skip it.'), "It's late, so we can skip it.");
    assert.equal(rw('The code is, honestly, a mess.'), 'The code is a mess.');
    assert.equal(rw('It is long, and honestly some clauses are boring.'), "It's long, and some clauses are boring.");
  });

  it('keeps the opener that a second verb hangs on: "I want you to reply …, not write …"', () => {
    assert.equal(rw('I want you to reply with the solution, not write any explanations.'), 'I want you to reply with the solution, not write any explanations.');
    assert.equal(rw('I want you to reply with the solution, not the explanation.'), 'Reply with the solution, not the explanation.');
  });

  it('keeps the opener that a second infinitive hangs on: "Your role is to assist …, not to take …"', () => {
    const role = 'Your role is to assist and guide the engineer through the incident response process, not to take unilateral action.';
    assert.equal(rw(role), role);
    assert.equal(rw('Your job is to summarise the notes and to list the owners.'), 'Your job is to summarise the notes and to list the owners.');
    assert.equal(rw('Your job is to summarise the notes for the team.'), 'Summarise the notes for the team.');
  });

  // Asides to the reader go whole; a sentence that also instructs, or is not an aside, stays.
  const asides: [string, string][] = [
    ["Fix the bug. I hope that's clear enough, it's a bit of a weird situation, I know.", 'Fix the bug.'],
    ['Fix the bug. Let me know if you need any more context, happy to share.', 'Fix the bug.'],
    ['Fix the bug. Thanks a million for this!', 'Fix the bug.'],
    // Before, the hedge went alone and left "Should be enough info, let me know otherwise."
    ['Fix the bug. I think that should be enough info, let me know otherwise.', 'Fix the bug.'],
    ['I think that is the wrong endpoint.', "I think that's the wrong endpoint."],
    ["Fix the bug. You're a star.", 'Fix the bug.'],
    ['Fix the bug. Hey, sorry to bother you with this, it is probably something silly.', 'Fix the bug.'],
    ['Thanks to the new cache, builds are fast.', 'Thanks to the new cache, builds are fast.'],
    ['Let me know the total in EUR.', 'Let me know the total in EUR.'],
    // An apology or thanks in front of what the sentence says goes alone; the sentence stays.
    ['Sorry, but never share the password.', 'Never share the password.'],
    ['Fix the handler. Sorry, the server crashes on large uploads.', 'Fix the handler. The server crashes on large uploads.'],
    ['Fix it. Sorry for the long message.', 'Fix it.'],
    ["Thanks for helping out with this — I'm an in-house counsel at a mid-sized company.", "I'm an in-house counsel at a mid-sized company."],
    ['I hope the answer has at most 3 bullet points.', 'I hope the answer has at most 3 bullet points.'],
    // An apology for the prompt itself goes whole: what is left after "Sorry," says nothing either.
    ["Turn this standup into bullets. Sorry, it's a bit rough.", 'Turn this standup into bullets.'],
    ["Never offer a discount. Sorry, that sounds strict, but it's important for us.", "Never offer a discount."],
    ['Sorry, this is the third time I ask about order 4411.', "This is the third time I ask about order 4411."],
    ['Quick one, hopefully. Write a SQL query for weekly revenue.', 'Write a SQL query for weekly revenue.'],
    ['Rewrite the intro. Thanks, I owe you one!', 'Rewrite the intro.'],
    ['You review the pull requests of this repository and you follow its rules. That\'s all.', "You review the pull requests of this repository and you follow its rules."],
    ['You review the pull requests of this repository. Output the JSON and that\'s it.', "You review the pull requests of this repository. Output the JSON and that's it."],
    ['Rewrite my cover letter. English is my second language so please be patient with me haha.', 'Rewrite my cover letter.'],
    // "Keep that in mind" adds nothing to the sentence before it: it went on to stand alone in a <context> at 25%.
    ['Route claims over $5,000 to a second reviewer. I\'d really appreciate it if you could keep that in mind.', 'Route claims over $5,000 to a second reviewer.'],
    ['Route claims over $5,000 to a second reviewer. Keep in mind that adjusters work in two shifts.', 'Route claims over $5,000 to a second reviewer. Note: adjusters work in two shifts.'],
    // "I know this is a lot to ask" goes only with an apology or thanks: a sentence that also asks stays.
    ['I know this is a lot to ask, and the clauses are boring, but try to be thorough.', 'I know this is a lot to ask, and the clauses are boring, but try to be thorough.'],
    ['Answer the quick one first, then the long question.', 'Answer the quick one first, then the long question.'],
    // Talk to the reader the new trial prompts of this round left in at 100%.
    ['Fix the bug. Any help would be massively appreciated.', 'Fix the bug.'],
    ["Fix the bug. Thanks a ton!! You're a lifesaver honestly.", 'Fix the bug.'],
    ['Hope your week is going OK. Fix the bug.', 'Fix the bug.'],
    ["Many thanks — and please keep it short, people don't read long emails!", "Keep it short, people don't read long emails!"],
    ['Hey Copilot — a few notes so your suggestions fit this repo.', 'A few notes so your suggestions fit this repo.'],
    ['Hello agents 👋 — this is the guide for working in the `harbor-web` monorepo.', 'This is the guide for working in the `harbor-web` monorepo.'],
    ["Hey, sorry in advance if this is a dumb question — I'm a product manager, not a data person.", "I'm a product manager, not a data person."],
    // What the model is to say or do is a rule, not the writer's apology: before, these went whole at 100%.
    ['Answer in English. If the customer is angry, apologize once.', 'Answer in English. If the customer is angry, apologize once.'],
    ['Answer in English. When a delivery is late, apologise and give the new date.', 'Answer in English. When a delivery is late, apologise and give the new date.'],
    ['Answer in English. If the order arrived damaged, say sorry and offer a replacement.', 'Answer in English. If the order arrived damaged, say sorry and offer a replacement.'],
    ['Fix it. I apologize for the messy notes.', 'Fix it.'],
    ['Fix it. Apologies for the length!', 'Fix it.'],
  ];
  for (const [input, expected] of asides) {
    it(`drops asides: ${JSON.stringify(input)}`, () => assert.equal(rw(input), expected));
  }

  // Asides of the other languages, as the trial prompts of this round wrote them; before, each stayed at
  // 100% and then outlived the rules at 50%. The rule beside each stays.
  const foreignAsides: [string, string][] = [
    ['Se puder me ajudar, agradeço demais. Não crie intenções novas.', 'Não crie intenções novas.'],
    ['Queria pedir uma ajudinha, se não for incômodo. Reescreva o aviso.', 'Reescreva o aviso.'],
    ['Vielleicht magst du kurz draufschauen, das wäre echt nett. Rechne nicht mit der Vergütung.', 'Rechne nicht mit der Vergütung.'],
    ['Je me permets de vous solliciter pour une petite aide, si vous avez un moment. Ne touchez pas au séparateur.', 'Ne touchez pas au séparateur.'],
    ['Te escribo por una cosita, si no es mucha molestia. Calcula el coste por kilo.', 'Calcula el coste por kilo.'],
    ['Je dois envoyer un mail, si vous avez un moment, à un fournisseur.', 'Je dois envoyer un mail à un fournisseur.'],
    ['嗯，大概就是这些。只输出标签。', '只输出标签。'],
    // A transcript line keeps its speaker when its greeting goes: before, "王磊：大家好，" went whole.
    ['麻烦帮我整理会议记录。王磊：大家好，今天人有点少，我们就快点开吧。', '麻烦帮我整理会议记录。王磊：今天人有点少，我们就快点开吧。'],
    ['Oi, gente, tudo bem? Preciso reescrever o aviso.', 'Preciso reescrever o aviso.'],
    ['E aí, pessoal, beleza? Subi a API num VPS.', 'Subi a API num VPS.'],
    // "That's all", as the whole sentence; where to ask beside "falls etwas unklar ist" is a rule.
    ['Nutze pnpm. Das ist eigentlich schon alles.', 'Nutze pnpm.'],
    ['Usa pnpm para todo. Eso es todo.', 'Usa pnpm para todo.'],
    ["Utilise pnpm. Voilà, c'est à peu près tout.", 'Utilise pnpm.'],
    ['Use pnpm em tudo. É isso.', 'Use pnpm em tudo.'],
    // A greeting and whom it greets, alone: before, "Olá, pessoal!" became "Pessoal!".
    ['Olá, pessoal! Use Java 21 em todos os serviços.', 'Use Java 21 em todos os serviços.'],
    ['Hola, chicos! Usa Java 21.', 'Usa Java 21.'],
    ['Nutze pnpm. Falls etwas unklar ist, lieber im Kanal #team-orders nachfragen als raten.', 'Nutze pnpm. Falls etwas unklar ist, lieber im Kanal #team-orders nachfragen als raten.'],
    // Help asked for and not named, a greeting, "if anything is unclear, ask me": left at 100% before.
    ['Desculpa incomodar, mas preciso de uma ajudinha rápida. Resuma a ata em tópicos.', 'Resuma a ata em tópicos.'],
    ['Desculpa, mas preciso de uma ajuda com um contrato de aluguel. Resuma.', 'Desculpa, mas preciso de uma ajuda com um contrato de aluguel. Resuma.'],
    ['不要升级大版本。如果有任何不清楚的地方，请直接问我。', '不要升级大版本。'],
    ['こんにちは。以下のお知らせを英語に翻訳してください。', '以下のお知らせを英語に翻訳してください。'],
  ];
  for (const [input, expected] of foreignAsides) {
    it(`drops asides of other languages: ${JSON.stringify(input)}`, () => assert.equal(rw(input), expected));
  }
  it('keeps a Chinese or Japanese sentence that says more beside its aside, and a request put humbly', () => {
    // Before, both went whole at 100%: a greeting or "恐縮ですが" made the sentence an aside.
    assert.equal(
      rw('大家好，我是做后端的，最近在把一个老的 Python 服务迁到 asyncio 上，遇到了点问题，想请教一下。说实话我对 asyncio 还不是很熟，如果问题比较基础请多包涵。环境：Python 3.11.4。'),
      '我是做后端的，最近在把一个老的 Python 服务迁到 asyncio 上，遇到了点问题，想请教一下。环境：Python 3.11.4。',
    );
    assert.equal(rw('お忙しいところ恐縮ですが、お詫びメールの書き直しをお願いできますでしょうか。経緯は 4 月 10 日の誤納品です。'), 'お忙しいところ恐縮ですが、お詫びメールの書き直しをお願いできますでしょうか。経緯は 4 月 10 日の誤納品です。');
    // One clause of talk beside the greeting still goes whole.
    assert.equal(rw('各位大佬好，想请教一个比较头疼的问题！数据库是 MySQL 8.0。'), '数据库是 MySQL 8.0。');
  });

  it('keeps what only looks like those asides: a rule with "no", a niceness rule', () => {
    assert.equal(rw('Das wäre nett, aber schreib nicht mehr als 100 Wörter.'), 'Das wäre nett, aber schreib nicht mehr als 100 Wörter.');
    assert.equal(rw('Si no es posible, escala al equipo.'), 'Si no es posible, escala al equipo.');
  });
});

describe('core/passes/rewrite: edits at a budget the prompt fits read as the writer wrote them', () => {
  const rw = (text: string) => through(text, [rewrite]);
  // Each of these was found on this round's trial prompts at 100%.
  const cases: [string, string, string][] = [
    ['the article agrees with the word a filler leaves it before', "I'm hoping a very explicit prompt helps. It was a really honest answer.", "I'm hoping an explicit prompt helps. It was an honest answer."],
    ['"there" as a place is no "there\'s"', 'The conflict resolution there is last-writer-wins.', 'The conflict resolution there is last-writer-wins.'],
    ['"there is" that opens its clause still contracts', 'If there is a cache, use it.', "If there's a cache, use it."],
    ['a hedge before an absolute stays: "basically never" is no "never"', 'It ships IP indemnities (which, honestly, we basically never do). It is basically a wrapper.', "It ships IP indemnities (which we basically never do). It's a wrapper."],
    ['"here" as a place is no "here\'s"', "Everything they'd do here is already covered. Here is the log.", "Everything they'd do here is already covered. Here's the log."],
    ['"is in addition to" is no "is besides"', 'The fee is due with the notice and is in addition to rent owed.', 'The fee is due with the notice and is in addition to rent owed.'],
    ['a filler before ")" takes its comma', 'I read the diff (my eyes glaze over after about 200 lines, to be honest) and stop.', 'I read the diff (my eyes glaze over after about 200 lines) and stop.'],
    ['"eine kurze Bitte" is the noun', 'Ich hätte eine kurze Bitte (na ja, eigentlich nicht so lang): fasse die Notizen zusammen.', 'Ich hätte eine kurze Bitte (na ja, eigentlich nicht so lang): fasse die Notizen zusammen.'],
    ['an apology the user has to write is the task, not an aside', "I'm the support lead at Tallyhop and I have to send an apology email to our customers about last week's outage. Write it in 150 words.", "I'm the support lead at Tallyhop and I have to send an apology email to our customers about last week's outage. Write it in 150 words."],
    ['the comma that ends a clause on a filler word stays', 'Den gibt es wirklich, Hammer Straße 112.', 'Den gibt es, Hammer Straße 112.'],
    ['a doubled filler goes with its comma', 'Das ist wirklich, wirklich wichtig.', 'Das ist wichtig.'],
    ['a "please" that closes a clause leaves its comma', 'Keep it friendly, no emojis please, my boss hates them.', 'Keep it friendly, no emojis, my boss hates them.'],
    ['a "please," set off after "so" goes with its comma', 'Orders expire after 7 days, so please, never let one be placed 8 days ahead.', 'Orders expire after 7 days, so never let one be placed 8 days ahead.'],
    ['"por favor" between two imperatives leaves one comma', 'Dímelo aparte, por favor, no lo metas directamente.', 'Dímelo aparte, no lo metas directamente.'],
    ['the capital goes past emphasis', '3. Bitte **kein** Object.groupBy verwenden.', '3. **Kein** Object.groupBy verwenden.'],
    ['the line after a salutation takes its capital', 'Hallo zusammen,\n\nich hänge an einem TypeScript-Fehler mit Node 20.11.', 'Ich hänge an einem TypeScript-Fehler mit Node 20.11.'],
    // Found on session 28's trial prompts at 100%.
    ['"in terms of x" is no "regarding x"', 'Give up to 4 expressions in terms of x.', 'Give up to 4 expressions in terms of x.'],
    ['"that" after "I think" is the subject of "covers"', 'Honestly, I think that covers the main cases of the import job.', 'I think that covers the main cases of the import job.'],
    ['"Anyway, I think that covers it." says nothing', 'Anyway, I think that covers it. Use UTC everywhere.', 'Use UTC everywhere.'],
    ['a filler before a phrase that goes on leaves one comma', "It's a pretty standard setup, really, nothing too fancy.", "It's a pretty standard setup, nothing too fancy."],
    ['a filler phrase written with its comma goes only where punctuation sets it off', 'We think about speed a lot, as you might imagine for an app used while running.', 'We think about speed a lot, as you might imagine for an app used while running.'],
    // Found on session 29's trial prompts at 100%.
    ['an opinion that opens a polite request goes with it', 'I think it would be really great if you could follow the conventions of the repo.', 'Follow the conventions of the repo.'],
    ['a polite request before "not" stays: "Not mention" is no imperative', 'It would be great if you could not mention the client.', "It would be great if you couldn't mention the client."],
    ["a polite request in someone's words stays", 'The team said it would be great if you could ship it by Friday.', 'The team said it would be great if you could ship it by Friday.'],
    ['a polite request after a linking word leaves the imperative', 'Also it would be great if you could keep it short.', 'Also keep it short.'],
    ['a German opener before the verb stays: "Bin ich …" reads as a question', 'Ehrlich gesagt bin ich mit meinem Entwurf nicht zufrieden.', 'Ehrlich gesagt bin ich mit meinem Entwurf nicht zufrieden.'],
    ['a German opener set off by its comma goes', 'Ehrlich gesagt, ich bin mit meinem Entwurf nicht zufrieden.', 'Ich bin mit meinem Entwurf nicht zufrieden.'],
    ['a restatement that names a day says something', 'Wie schon gesagt, die Frist ist Freitag.', 'Die Frist ist Freitag.'],
    ['a Spanish closing of asides goes whole', 'Necesito una consulta SQL. Bueno, creo que eso es todo, no sé si me he explicado bien, pero en fin, ¡mil gracias otra vez y que tengas un buen día!', 'Necesito una consulta SQL.'],
    ['"en fin de semana" is no "en fin"', 'Paga a fin de mes y en fin de semana no.', 'Paga a fin de mes y en fin de semana no.'],
    ['a French offer to answer questions goes, in "tu" as in "vous"', "Résume la réunion. N'hésite pas si tu as des questions. Je te remercie par avance, et n'hésite pas à me dire si quelque chose n'est pas clair !", 'Résume la réunion.'],
    ["a welcome to the model says nothing", "You are a support assistant for Acme. Hello and welcome aboard! We're so glad to have you on the team. Welcome the customer by name.", "You're a support assistant for Acme. Welcome the customer by name."],
  ];
  for (const [what, input, expected] of cases) it(what, () => assert.equal(rw(input), expected));
});
