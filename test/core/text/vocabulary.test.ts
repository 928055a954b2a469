import { strict as assert } from 'node:assert';
import { foldWord, UNKNOWN, Vocabulary } from '../../../src/core/text/vocabulary';

describe('core/text/vocabulary', () => {
  const vocabulary = new Vocabulary(['in', 'order', 'to', "i'd", 'keep', 'kindly', 'a']);

  it('finds a word in text as foldWord matches it: case, curly apostrophes, non-ASCII', () => {
    const pieces = ['i', 'n', 'I', 'N', 'order', 'ORDER', 'to', "'", '’', 'd', 'D', 'keep', 'K', '\u212A', 'İ', 'é', '-', '7', 'a', 'A', 'ß', 'kindly'];
    let seed = 9;
    const random = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
    for (let n = 0; n < 20_000; n++) {
      let word = '';
      for (let k = 1 + Math.floor(random() * 4); k > 0; k--) word += pieces[Math.floor(random() * pieces.length)];
      const text = `x ${word} y`;
      assert.equal(vocabulary.idIn(text, 2, 2 + word.length), vocabulary.id(word), JSON.stringify(word));
    }
    assert.equal(vocabulary.idIn('I’D', 0, 3), vocabulary.id("i'd"));
    assert.equal(vocabulary.idIn('\u212Aeep', 0, 4), vocabulary.id('keep')); // the Kelvin sign lower-cases to k
    assert.equal(vocabulary.idIn('ORDERS', 0, 6), UNKNOWN);
    assert.equal(foldWord('Don’T'), "don't");
  });
});
