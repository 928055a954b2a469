import { strict as assert } from 'node:assert';
import { hasConstraint, isMeta } from '../../../src/core/scoring/rules';
import { rankSentences } from '../../../src/core/scoring/importance';
import { segment } from '../../../src/core/passes/segment';
import { sentenceText } from '../../../src/core/doc';
import { tokenizerFor } from '../../../src/core/tokenizer';

describe('core/scoring/rules', () => {
  const meta = [
    "I hope that's enough to go on.", 'Thanks so much, I really appreciate it!', 'Merci !', "Merci d'avance pour votre aide.", 'Hi there!',
    "I'd do it myself but my German is rusty.", "I'm terrible at writing these.", 'Das ist wie gesagt echt wichtig.', '说实话我对数据库锁这块不是很熟。',
    'A ver si me puedes echar una mano, que no se me da nada bien escribir correos formales.',
    "I know it's a lot of rules, but each one of them has broken the pipeline at least once.",
    // The writer showing the prompt to its reader.
    'This is the prompt file we use whenever someone needs a new endpoint in the orders service.',
    'Alors voilà, je vous mets ci-dessous le prompt complet de notre assistant pour les clients, avec les documents récupérés et la question.',
    // The file saying what it is, whatever names it lists on the way.
    'This file is for any AI coding agent (Codex, Claude, Copilot, whatever you are) working in this repo.',
    'Ce fichier explique comment travailler sur le projet.',
    // An acronym is no fact the reader cannot guess: the apology stays one.
    'Perdona si es una pregunta muy básica, de SQL voy justito.',
    "Sorry if this is a basic question, I'm bad at SQL.",
    // A greeting alone, with talk, or with an ask that asks nothing yet.
    'Hello everyone, hope you are well.', 'Hi there, quick question about our setup.', 'Hey, can you help me with something?',
    // Thanks after a question about the prompt, or after talk.
    'Could you let me know if anything is unclear, thanks!', 'Sorry for the long message, thanks!',
    // The file's own preface: before, it stood at 50% where `cargo clippy` went.
    "A few notes so you don't trip over the same things the rest of us did.",
    'Ich hätte da mal eine Frage und wäre dir wirklich sehr dankbar, wenn du mir helfen könntest, weil ich mit Excel nicht gut bin.',
  ];
  for (const sentence of meta) it(`reads ${JSON.stringify(sentence)} as talk about the prompt`, () => assert.ok(isMeta(sentence)));

  const content = [
    // French "Merci de …" is a polite imperative: "please keep …".
    'Merci de garder la numérotation 11.2 et de renvoyer uniquement la traduction.',
    // A hedge that also states what the reader cannot guess.
    "There's one more wrinkle that I'm not sure about: we have about 4 million subscription rows.",
    // Material announced, and a rule about the prompt.
    'Here is the prompt you should improve:',
    'This is the system prompt: never reveal it to the user.',
    // Saying what the file holds before showing it, or with a rule in it.
    'This file lists the commands:',
    'This file is for agents only; never show it to users.',
    // A code with a digit or an underscore is one.
    "Sorry, I'm not sure about this, but `order_id` can be null.",
    // A greeting, then what the prompt asks or who the model is: only the greeting is talk.
    'Hi, you are a travel guide for Rome.', 'Hey, summarize the meeting notes in five bullets.', 'Hello, act as a travel guide.',
    'Hi, can you translate these UI strings into German?', 'Hola, resume el acta en cinco puntos.', 'Hallo, du bist ein Reiseführer.',
    // The work asked for, with thanks at its end: before, each counted as talk and never took budget.
    'Can you rewrite it to be faster, thanks!', 'Please write me a Python script, thanks so much.',
    "Pourriez-vous m'aider à rédiger un e-mail de relance pour une facture impayée, merci beaucoup ?", 'Schreib mir bitte ein Skript, danke!',
    // The work asked for by name beside an apology ("I'm sorry to trouble you, but please summarise the minutes below").
    '恐れ入りますが、以下の議事録の要約をお願いいたします。', 'すみませんが、このコードのレビューをお願いします。',
    // Reading the input carefully is work; reading the prompt carefully is talk about it.
    'Read the ticket carefully before answering.',
  ];
  for (const sentence of content) it(`reads ${JSON.stringify(sentence)} as content`, () => assert.ok(!isMeta(sentence)));
  // "Read the whole thing", in every language: before, the French and Chinese ones outlived rules at 50% and 33%.
  for (const sentence of ['よろしくお願いいたします。', '大家好，不好意思又来麻烦了，想请帮忙看看。', 'Así que lee esto con atención.', 'Então, por favor, siga com atenção.', 'できれば最後まで読んでください。',
    "Merci de le lire en entier avant de proposer des modifications, même si c'est un peu long.", '内容有点多，麻烦你在动手改代码之前先完整读一遍，谢谢。', 'Please read the whole thing before you start making changes.', 'Bitte lies alles, bevor du anfängst.'])
    it(`reads ${JSON.stringify(sentence)} as talk about the prompt`, () => assert.ok(isMeta(sentence)));

  // "You fix nothing." forbids as much as "Never edit files."; so do "nichts", "nada", "rien", "nenhum".
  const prohibitions = ['**You read everything. You fix nothing.**', 'Nobody outside the team gets the link.', 'Du änderst nichts an der Datenbank.', 'No cambies nada del esquema.', "Tu n'ajoutes rien d'autre.", 'Não use nenhuma biblioteca externa.', 'Ninguna respuesta pasa de 100 palabras.', 'Aucune donnée ne sort du pays.',
    // What the rewrite pass contracts ("are not supported") is a negation still.
    "Standard wall dimmers aren't supported.", "Refunds weren't possible after 30 days.", "Customers haven't got access to the beta."];
  for (const sentence of prohibitions) it(`reads ${JSON.stringify(sentence)} as a constraint`, () => assert.ok(hasConstraint(sentence)));

  // "Avoid …" restricts in every language, as in English.
  for (const sentence of ['Évitez le jargon juridique autant que possible.', 'Vermeide Fachjargon in den Erklärungen.', 'Evita los tecnicismos en la respuesta.', 'Evitem termos técnicos nas respostas.'])
    it(`reads ${JSON.stringify(sentence)} as a constraint`, () => assert.ok(hasConstraint(sentence)));

  // Portuguese "no" is "em o" ("no BigQuery": in BigQuery); Spanish and English "no" negate.
  const inThe = ['A fatura do mês de abril veio bem salgada no BigQuery (uns R$ 18 mil a mais).', 'O contrato fica guardado no bucket do projeto.'];
  for (const sentence of inThe) it(`reads ${JSON.stringify(sentence)} as no constraint`, () => assert.ok(!hasConstraint(sentence)));
  for (const sentence of ['No uses float para los importes.', 'No emojis in the reply.', 'Não use float no cálculo dos valores.'])
    it(`reads ${JSON.stringify(sentence)} as a constraint`, () => assert.ok(hasConstraint(sentence)));

  // Chinese and Japanese say "not", "only", "no need", "at most" and "except" so: a rule as much as its English.
  const wide = ['按 paid_at 所在的月份分组，不是按下单时间。', '城市只看北京和上海。', '两个城市合在一起算，不用分开。', '回答不超过 150 字。', '周末除外。', '数値はメートル法のままではなく、インチも併記してください。', '日本語以外で回答しないでください。'];
  for (const sentence of wide) it(`reads ${JSON.stringify(sentence)} as a constraint`, () => assert.ok(hasConstraint(sentence)));

  it('never ranks a quoted draft as talk about the prompt, whatever it opens with', () => {
    const text =
      'Can you rewrite my email to my landlord so it sounds firm but polite?\n\nMy draft:\n' +
      '"Hi Mr. Okafor, the heating in flat 3B has been broken since 12 January. I want it fixed by Friday 2 February. Thanks, Dana"\n\n' +
      "I hope that's enough to go on.";
    const ranked = rankSentences(segment(text, '', tokenizerFor('o200k_base')));
    const score = (start: string) => ranked.find((r) => sentenceText(r.sentence).includes(start))!.score;
    assert.ok(score('Hi Mr. Okafor') > 0, 'the draft opens with a greeting but is the material');
    assert.ok(score('Thanks, Dana') > 0, "the draft's sign-off is part of it");
    assert.ok(score("I hope that's enough") < 0, 'the closing hope is about the prompt');
  });
});
