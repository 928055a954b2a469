import { strict as assert } from 'node:assert';
import { findProtectedSpans } from '../../../src/core/text/inline';
import { sentenceEnds } from '../../../src/core/text/sentences';

/** The sentences of `text` as the segmenter cuts them, trimmed. */
const split = (text: string): string[] => {
  let start = 0;
  return sentenceEnds(text, findProtectedSpans(text)).map((end) => {
    const sentence = text.slice(start, end).trim();
    start = end;
    return sentence;
  });
};

describe('core/text/sentences', () => {
  const cases: [string, string, string[]][] = [
    ['"etc." before a capital ends the sentence', 'Use animals, history etc. My first request is a story. Bring fruit, bread, etc. and water.',
      ['Use animals, history etc.', 'My first request is a story.', 'Bring fruit, bread, etc. and water.']],
    ['a quotation that ends its sentence', 'My first request is "Can you suggest some sights?" Thanks! He said "stop." and left.',
      ['My first request is "Can you suggest some sights?"', 'Thanks!', 'He said "stop." and left.']],
    ['a prompt typed without capitals', 'reply with the output, and nothing else. do not write explanations. when i need to, i will say so {like this}. my first command is ls. use e.g. the docs.',
      ['reply with the output, and nothing else.', 'do not write explanations.', 'when i need to, i will say so {like this}.', 'my first command is ls.', 'use e.g. the docs.']],
    ['English, with an abbreviation and a decimal', 'Dr. Smith paid 3.5 GB. Then he left.', ['Dr. Smith paid 3.5 GB.', 'Then he left.']],
    [
      'a hard-wrapped sentence whose next line opens with inline code',
      "Compare each value against the default in the module's\n`variables.tf`. Set any other explicitly.",
      ["Compare each value against the default in the module's\n`variables.tf`.", 'Set any other explicitly.'],
    ],
    [
      'a hard-wrapped sentence whose line ends with inline code',
      'or safely reject invalid input. Use `PASS WITH CAVEATS`\nonly for bounded documentation drift. Otherwise use `PASS`.',
      ['or safely reject invalid input.', 'Use `PASS WITH CAVEATS`\nonly for bounded documentation drift.', 'Otherwise use `PASS`.'],
    ],
    ['German ordinal dates and "Mio."', 'Tesla starb am 7. Januar 1943 in New York. Das Kapital betrug 162 Mio. Euro zum 31. August 2009.',
      ['Tesla starb am 7. Januar 1943 in New York.', 'Das Kapital betrug 162 Mio. Euro zum 31. August 2009.']],
    ['German ordinals after a comma or a possessive (before, "OG, seit 2019." stood alone), not English numbers',
      'Unser Büro liegt in der Karl-Liebknecht-Straße 14, 3. OG, seit 2019. Das ist meine 2. Mahnung. Divide it in 2. Then stop. Es sind 14. Danach kommt nichts.',
      ['Unser Büro liegt in der Karl-Liebknecht-Straße 14, 3. OG, seit 2019.', 'Das ist meine 2. Mahnung.', 'Divide it in 2.', 'Then stop.', 'Es sind 14.', 'Danach kommt nichts.']],
    ['a speaker\'s number after the colon is no run-in list item (before, "Hiroshi (CTO):" was a sentence of its own, left alone at 50%)',
      'Hiroshi (CTO): 24. Twenty-five was the old number. Steps: 1. Build. 2. Test.',
      ['Hiroshi (CTO): 24. Twenty-five was the old number.', 'Steps:', '1. Build.', '2. Test.']],
    ['a German day before its month, after a weekday (before, "Gesendet: Donnerstag, 27." ended a sentence)',
      'Gesendet: Donnerstag, 27. Februar 2025 16:02. Wir liefern am Montag, 3. März. Es sind 14. Danach kommt nichts.',
      ['Gesendet: Donnerstag, 27. Februar 2025 16:02.', 'Wir liefern am Montag, 3. März.', 'Es sind 14.', 'Danach kommt nichts.']],
    ['what numbers a law\'s parts before a number (before, "compatível com o art." ended a sentence), not a word',
      'A cláusula é compatível com o art. 4º da Lei 8.245/91? Não sei. Gemäß Art. 5 GG gilt das. I love modern art. It is great.',
      ['A cláusula é compatível com o art. 4º da Lei 8.245/91?', 'Não sei.', 'Gemäß Art. 5 GG gilt das.', 'I love modern art.', 'It is great.']],
    ['Spanish "EE. UU."', 'Sus primeras patentes en EE. UU. llegaron pronto. Luego vino la guerra.', ['Sus primeras patentes en EE. UU. llegaron pronto.', 'Luego vino la guerra.']],
    ['Chinese full stops, no spaces', '请用中文回答。不要编造数据。', ['请用中文回答。', '不要编造数据。']],
    ['Japanese', '必ず確認してください。番号は聞かないでください。', ['必ず確認してください。', '番号は聞かないでください。']],
    ['Hindi danda', 'वारसॉ पोलैंड की राजधानी है। यह विस्तुला नदी पर है।', ['वारसॉ पोलैंड की राजधानी है।', 'यह विस्तुला नदी पर है।']],
    ['spaced abbreviations (z. B., d. h., p. ex.), not a lone letter', 'Schlüssel in Punkt-Notation, z. B. `checkout.pay`. Alle Texte, d. h. auch Fehler. Noms courts, p. ex. « panier ». Option a. Be careful.',
      ['Schlüssel in Punkt-Notation, z. B. `checkout.pay`.', 'Alle Texte, d. h. auch Fehler.', 'Noms courts, p. ex. « panier ».', 'Option a.', 'Be careful.']],
    ['Spanish, past an abbreviation', 'Trabajo en Ferretería Hnos. Villalba y uso MySQL 8. Vivo en la Av. Central.', ['Trabajo en Ferretería Hnos. Villalba y uso MySQL 8.', 'Vivo en la Av. Central.']],
    // Before, "Hauptstr." ended a sentence and "12, 80331 München" was one of its own.
    ['German, a street before its number', 'MÜLLER BÜROBEDARF GmbH, Hauptstr. 12, 80331 München. Die Ware kam am 3. Mai. Wir wohnen in der Goethestr. Sie ist ruhig.',
      ['MÜLLER BÜROBEDARF GmbH, Hauptstr. 12, 80331 München.', 'Die Ware kam am 3. Mai.', 'Wir wohnen in der Goethestr.', 'Sie ist ruhig.']],
    // Before, "Tel." ended a sentence of a quoted letter and went alone, leaving a bare number.
    ['a telephone or fax number after its label', 'Bei Fragen erreichen Sie mich unter Tel. 09571 88 41-23 oder Fax. 09571 88 41-99. Grüße aus Kronach.',
      ['Bei Fragen erreichen Sie mich unter Tel. 09571 88 41-23 oder Fax. 09571 88 41-99.', 'Grüße aus Kronach.']],
    // Before, "MwSt." was a sentence of its own on each line, and dedupe dropped the second: "19 %: 12,00 €".
    ['a short label that opens its line before a number', 'MwSt. 7 %: 5,35 €\nMwSt. 19 %: 12,00 €\nDie Summe ist 100 € inkl. MwSt. 19 Artikel kamen an.',
      ['MwSt. 7 %: 5,35 €', 'MwSt. 19 %: 12,00 €', 'Die Summe ist 100 € inkl. MwSt.', '19 Artikel kamen an.']],
    [
      'Thai, at spaces once a sentence has some length',
      'วอร์ซอเป็นเมืองหลวงของประเทศโปแลนด์และเป็นเมืองที่ใหญ่ที่สุดของประเทศมีประชากรประมาณ 1.7 ล้านคน แม่น้ำวิสตูลาไหลผ่านใจกลางเมืองจากทางใต้ไปทางเหนือของประเทศโปแลนด์ สั้น',
      ['วอร์ซอเป็นเมืองหลวงของประเทศโปแลนด์และเป็นเมืองที่ใหญ่ที่สุดของประเทศมีประชากรประมาณ 1.7 ล้านคน', 'แม่น้ำวิสตูลาไหลผ่านใจกลางเมืองจากทางใต้ไปทางเหนือของประเทศโปแลนด์ สั้น'],
    ],
    ['a numbered list run into its paragraph', 'We can proceed: 1. **Request**: Ask me for the text. 2. **Plan**: Explain the steps. The score was 2. Then stop.',
      ['We can proceed:', '1. **Request**: Ask me for the text.', '2. **Plan**: Explain the steps.', 'The score was 2.', 'Then stop.']],
    ['a key combination before a question', 'It seems to swallow Ctrl+C. Can you point out the bugs? J. R. R. Tolkien wrote it.',
      ['It seems to swallow Ctrl+C.', 'Can you point out the bugs?', 'J. R. R. Tolkien wrote it.']],
    ['a shell command whose quoted pattern ends in a period, before its redirect',
      'grep -rn "^import React" src/ | grep -v "\\.test\\." 2>/dev/null\nRun it from the root. Read "the docs." 2 tests fail.',
      ['grep -rn "^import React" src/ | grep -v "\\.test\\." 2>/dev/null', 'Run it from the root.', 'Read "the docs."', '2 tests fail.']],
    ['a hard-wrapped sentence whose line stops on a word no sentence ends with',
      "Always verify each selected module's\nREADME and `variables.tf`. Read the\nDocs first. Be concise\nUse bullet points",
      ["Always verify each selected module's\nREADME and `variables.tf`.", 'Read the\nDocs first.', 'Be concise', 'Use bullet points']],
    ['Arabic question mark', 'ما هي عاصمة بولندا؟ وارسو هي العاصمة.', ['ما هي عاصمة بولندا؟', 'وارسو هي العاصمة.']],
  ];
  for (const [name, text, expected] of cases) it(`splits ${name}`, () => assert.deepEqual(split(text), expected));
});
