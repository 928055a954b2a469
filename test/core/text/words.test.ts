import { strict as assert } from 'node:assert';
import { WORD, terms, words } from '../../../src/core/text/words';

describe('core/text/words', () => {
  const reference = (text: string) => text.toLowerCase().match(WORD) ?? [];

  it('finds the same words as the WORD pattern, on ASCII and non-ASCII text', () => {
    const pieces = ['a', 'Z', '7', ' ', '-', '_', "'", '’', '.', 'é', 'É', 'İ', 'Σ', 'ß', '\u0301', '中', '٣', '😀', '\uD800', '\n', 'don’t', "it's", 'e-mail', 'x_y'];
    let seed = 3;
    const random = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
    for (let n = 0; n < 20_000; n++) {
      let text = '';
      for (let k = Math.floor(random() * 10); k > 0; k--) text += pieces[Math.floor(random() * pieces.length)];
      assert.deepEqual(words(text), reference(text), JSON.stringify(text));
    }
    assert.deepEqual(words('The café’s API-key, 3.5 ÉTÉ'), ['the', 'café’s', 'api-key', '3', '5', 'été']);
  });

  it('matches inflected forms outside English by their first five characters, numbers whole', () => {
    assert.deepEqual(terms("İstanbul'da", false), terms('İstanbul', false));
    assert.deepEqual(terms('Варшавы', false), terms('Варшава', false));
    assert.notDeepEqual(terms('123456', false), terms('123457', false));
  });

  it('matches Arabic words with and without their prefixes and suffixes, and Hindi plurals with their singular', () => {
    // Truncation kept "المدي" apart from "مدينة", and "शहरों" (5 code points) apart from "शहर".
    assert.deepEqual(terms('المدينة', false), terms('مدينة', false));
    assert.deepEqual(terms('بالمدينة', false), terms('مدينة', false));
    assert.deepEqual(terms('كتابهم', false), terms('الكتاب', false));
    assert.deepEqual(terms('शहरों', false), terms('शहर', false));
    assert.notDeepEqual(terms('مدينة', false), terms('مدرسة', false));
  });

  it('keeps the vowel signs of Hindi inside their word', () => {
    assert.deepEqual(words('वारसॉ पोलैंड की राजधानी है'), ['वारसॉ', 'पोलैंड', 'की', 'राजधानी', 'है']);
  });

  it('matches hyphenated compounds by their parts, without their stopwords', () => {
    assert.deepEqual(terms('an 18-yard pass, gold-themed', true), terms('18 yard pass gold themed', true));
    assert.deepEqual(terms('play-by-play', true), terms('play play', true));
  });

  it('reads Chinese, Japanese and Thai as overlapping character pairs, keeping numbers and Latin words whole', () => {
    assert.deepEqual(terms('超级碗50在哪里举行？', false), ['超级', '级碗', '50', '在哪', '哪里', '里举', '举行']);
    assert.deepEqual(terms('请用 SQL 回答', false), ['请用', 'sql', '回答']);
  });
});
