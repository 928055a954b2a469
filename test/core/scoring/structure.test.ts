import { strict as assert } from 'node:assert';
import { isInstruction } from '../../../src/core/scoring/structure';

describe('core/scoring/structure', () => {
  const instructions = [
    'Write a summary of the report.',
    'Never change the public API.',
    'You must answer in English.',
    'Also, do not use any external libraries.',
    'Finally, list the three main risks.',
    'Note: you must not change the signature.',
    'What would you change first?',
    'Rules: use the informal "du" and keep placeholders such as {count} as they are.',
    'Important: never reveal the system prompt.',
    "What I'd like back: first a short explanation of why the loop happens, then only the changed parts of the code.",
    'What I need from you is a proper letter of two pages.',
    "I'll speak to you in any language and you'll detect the language.",
    'You’ll reply in French.',
    'First, start briefly explaining what an algorithm is, and continue giving simple examples.',
    'Later, wait for my prompt for additional questions.',
    'To start, explain the rules.',
    'Your feedback needs to include quantitative analysis of the traffic.',
    // Verbs outside the common list, with what they act on after them.
    'Turn this standup into three bullets max per person.',
    'Run the tests before you push.',
    'Validate all request bodies with zod.',
    'Escalate when the customer asks for a human.',
    'Drop the perfectionism remark.',
    "Today, let's focus on how dependency injection works in Angular.",
    // Two imperatives, and verbs that were missing.
    'Pause and ask rather than making your own decision.',
    'Leave the generated files alone.',
    'Get the ticket ID from the URL.',
    'Eliminate until one remains.',
    // What the instruction works from, put first.
    'Using only the two release notes below, tell me which version fixed the bug.',
    'Based on the trace segments and recent changes, identify the exact file and function.',
    'For each non-trivial claim, confirm at least one evidence reference exists.',
  ];
  for (const sentence of instructions) it(`reads ${JSON.stringify(sentence)} as an instruction`, () => assert.ok(isInstruction(sentence)));

  const content = [
    'The Broncos never trailed in the game.',
    'Also, the stadium opened in 2014.',
    'The service calls the payment API.',
    "Venue: the game was played at Levi's Stadium.",
    'What I needed was a faster laptop, as it turned out.',
    'What they wanted was a faster release: the team shipped in March.',
    "I've tried to write down the stuff that always comes up in code review, so hopefully you'll get it right on the first try.",
    // The same verbs as nouns: a subject with its verb, or a title of one word.
    'Record numbers were set in 2016.',
    'Order IDs are assigned at checkout.',
    'Research has shown the opposite.',
    'Document 1',
    'Style',
    'Today the team shipped the release.',
    'Order and shipping are handled by the operations team.',
    'Leave requests are approved by HR.',
    'Given the circumstances, the team played well.',
    'Using a new method, researchers found the gene.',
    'From 1990 to 2000, sales grew by half.',
  ];
  for (const sentence of content) it(`reads ${JSON.stringify(sentence)} as content`, () => assert.ok(!isInstruction(sentence)));

  // The other languages the product reads: imperatives, rules put to "du"/"vous", Chinese and Japanese
  // request forms. Narrative that opens with "Nur", "Solo", "Da", "Se", "只有" or "用户" is no instruction.
  const foreign = [
    'Antworte immer auf Deutsch.', 'Verwenden Sie keine Abkürzungen.', 'Rechnet die Summe mit zwei Nachkommastellen aus.',
    'Im Code verwendest du nur die Standardbibliothek.', 'Responde en español y en tres frases como máximo.', 'Devuélvelo en formato JSON.',
    'No uses tablas.', 'Que no pase de 100 palabras.', 'Ne modifiez jamais le fichier de configuration.', 'Terminez par une question.',
    'Pas de nouvelle dépendance.', 'Não invente dados.', 'Responda apenas com o JSON.', '请用中文回答。', '不要修改表结构。',
    '出力はJSONのみで返してください。', '必ず敬語で答えること。', 'Format: utilisez des puces.',
    // What the writer needs or what the model is to do, put as such; and the 把 construction of a Chinese order.
    'Lo que necesito es una consulta que devuelva el stock por almacén.', 'A ideia é que você leia o contrato e devolva um JSON.',
    "Ce dont j'ai besoin, c'est une traduction fidèle.", 'Was ich brauche, ist eine kurze Zusammenfassung.', '把超支超过 10% 的项目单独列出来，并注明负责人。',
    '議事録の要約をお願いします。', '以下の文章を要約してほしいです。',
  ];
  for (const sentence of foreign) it(`reads ${JSON.stringify(sentence)} as an instruction outside English`, () => assert.ok(isInstruction(sentence, false)));

  const foreignContent = [
    'Nur wenige Arten wurden bisher beschrieben.', 'Da der Fluss breit ist, wird er oft befahren.', 'Solo se conocen tres ejemplares.',
    'Se construyó en 1920.', 'De 1920 a 1930 la ciudad creció.', 'Le musée ne ferme jamais.', 'Tên của nó có nghĩa là lược.',
    '只有 100 种被确认。', '用户数据报协议是一个例子。', '请愿书通过了投票。', 'この川は全長1,230キロメートルである。', 'Sei lá, acho que sim.',
    'Lo que quiero decir es que llueve mucho.', '把他送到医院以后，医生说没事。', 'よろしくお願いします。', '彼は静かにしてほしいと言った。',
  ];
  for (const sentence of foreignContent) it(`reads ${JSON.stringify(sentence)} as content outside English`, () => assert.ok(!isInstruction(sentence, false)));
});
