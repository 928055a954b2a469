import { strict as assert } from 'node:assert';
import { keptSentences, render, sentenceText } from '../../../src/core/doc';
import { select } from '../../../src/core/passes/select';
import { clauseText, keepClauses, splitClauses } from '../../../src/core/text/clauses';
import { context, parse } from '../helpers';

/** The pieces of the only sentence of `text`. */
function pieces(text: string) {
  const sentences = keptSentences(parse(text));
  assert.equal(sentences.length, 1, 'one sentence expected');
  return sentences[0]!.pieces;
}

function clauses(text: string): string[] {
  const p = pieces(text);
  const found = splitClauses(p);
  return found.map((_, c) => clauseText(p, found, c));
}

function keep(text: string, kept: boolean[]): string {
  const p = pieces(text);
  return keepClauses(p, splitClauses(p), kept).map((piece) => piece.text).join('');
}

const CBS = 'CBS broadcast the game in the U.S., and charged an average of $5 million for a commercial during the game.';
const FIRST = 'It is the first final held in the Bay Area since 1985, and the first in California since the final took place in San Diego in 2003.';

describe('core/text/clauses', () => {
  it('cuts before a conjunction; a clause without its own subject depends on the one before', () => {
    const p = pieces(CBS);
    const found = splitClauses(p);
    assert.deepEqual(found.map((_, c) => clauseText(p, found, c)), ['CBS broadcast the game in the U.S.', ', and charged an average of $5 million for a commercial during the game.']);
    assert.deepEqual(found.map((c) => c.dependent), [false, true]);
    assert.deepEqual(splitClauses(pieces(FIRST)).map((c) => c.dependent), [false, false]);
  });

  it('cuts before relative clauses and participles', () => {
    assert.deepEqual(clauses('Newton was limited by the defense, which sacked him seven times, including a fumble that they recovered.'), [
      'Newton was limited by the defense',
      ', which sacked him seven times',
      ', including a fumble that they recovered.',
    ]);
  });

  it('cuts parallel clauses that repeat the opening verb after another name, even inside a list', () => {
    assert.deepEqual(clauses('Fox paid for Deadpool, X-Men and Eddie the Eagle, Lionsgate paid for Gods of Egypt and Disney paid for The Jungle Book.'), [
      'Fox paid for Deadpool, X-Men and Eddie the Eagle',
      ', Lionsgate paid for Gods of Egypt',
      ' and Disney paid for The Jungle Book.',
    ]);
    // The opening verb is not repeated after a name: an ordinary list.
    const list = 'Fox paid for Deadpool, Lionsgate for Gods of Egypt and Disney for The Jungle Book.';
    assert.deepEqual(clauses(list), [list]);
  });

  it('cuts comma splices where a subject and its verb start a sentence of their own, unless the clause before needs them', () => {
    assert.deepEqual(clauses('I want you to act as a prompt generator, I will send a topic, you have to write a prompt about it, the prompt should start with a role.'), [
      'I want you to act as a prompt generator',
      ', I will send a topic',
      ', you have to write a prompt about it',
      ', the prompt should start with a role.',
    ]);
    // A condition, a time or an example in front is no sentence without what follows it.
    for (const text of [
      'When I enter the keyword REVIEW, you will summarise the whole conversation so far.',
      "For example, if I'm struggling with my manager at work, you can suggest a few tactics.",
    ]) assert.deepEqual(clauses(text), [text]);
  });

  it('cuts a role from the relative clause that describes it: the description comes only with the role', () => {
    const text = 'Act as a prompt enhancer that takes short prompts and turns them into detailed questions.';
    assert.deepEqual(clauses(text), ['Act as a prompt enhancer', ' that takes short prompts and turns them into detailed questions.']);
    assert.deepEqual(splitClauses(pieces(text)).map((c) => c.dependent), [false, true]);
    // Not any relative clause: "the file that you edit" names which file.
    const plain = 'Open the file that you edited last and check its imports.';
    assert.deepEqual(clauses(plain), [plain]);
  });

  it('does not cut lists, restrictions, embedded relative clauses or short pieces', () => {
    for (const text of [
      'They joined the Patriots, Dallas Cowboys, and Pittsburgh Steelers as one of four teams.',
      'Deploy the service on Friday, unless the tests fail on the main branch.',
      "The game's media day, which was typically held on Tuesday, was moved to the Monday evening.",
      'Yes, and it rained all day long in the city.',
      // Names in a list, then "you": no subject and verb after the comma.
      'Invite Anna, Bernd, Carla and you to the kick-off meeting on Monday.',
      // A label and the quotation after its dash are one clause: "My first request" alone says nothing.
      'My first request – “Something light yet fulfilling that could be cooked quickly during lunch break”',
    ]) assert.deepEqual(clauses(text), [text]);
  });

  it('never cuts inside a protected span', () => {
    const text = 'He wrote "we won the game, and the fans cheered all night long" in his diary after the game.';
    const p = pieces(text);
    assert.ok(p.some((piece) => piece.locked && piece.text.includes(', and the fans')));
    assert.deepEqual(clauses(text), [text]);
    const mixed = 'The match ended on February 7, 2016, and the fans went home through the rain.';
    const found = splitClauses(pieces(mixed));
    for (const clause of found.slice(1)) assert.equal(pieces(mixed)[clause.piece]!.locked, false);
    assert.deepEqual(clauses(mixed), ['The match ended on February 7, 2016', ', and the fans went home through the rain.']);
  });

  it('repairs punctuation: a new first clause loses its conjunction and gets a capital, the period stays', () => {
    assert.equal(keep(FIRST, [false, true]), 'The first in California since the final took place in San Diego in 2003.');
    assert.equal(keep(FIRST, [true, false]), 'It is the first final held in the Bay Area since 1985.');
    assert.equal(keep(CBS, [true, false]), 'CBS broadcast the game in the U.S.'); // no second period
    assert.equal(keep('Was the roof rebuilt after the storm, or did the owners sell the building?', [true, false]), 'Was the roof rebuilt after the storm?');
  });

  it('never cuts a kept sentence to a clause; a clause is only the last resort when no whole sentence fits', () => {
    const long = 'The museum opened in 1923 in a former railway station near the old harbour of the town, and the roof was rebuilt after a storm in 1987.';
    const text = `${long} Guided tours start every hour at the main entrance. The café on the top floor serves lunch until 3 pm.`;
    const doc = parse(text, 'When was the roof rebuilt?');
    select.run(doc, context(16, 'strict'));
    const originals = [long, 'Guided tours start every hour at the main entrance.', 'The café on the top floor serves lunch until 3 pm.'];
    for (const kept of keptSentences(doc).map(sentenceText)) assert.ok(originals.includes(kept), `cut: ${kept}`);
    // Alone and over budget, the sentence gives up the clause the task does not ask about.
    const alone = parse(long, 'When was the roof rebuilt?');
    select.run(alone, context(16, 'strict'));
    assert.ok(render(alone).includes('1987') && !render(alone).includes('railway'), render(alone));
  });
});
