import { sentenceWords, type Sentence } from '../doc';
import { words } from '../text/words';
import { isInstruction } from './structure';
import { ADDRESSEES } from '../data/rewrites';
import { POLITE_ASKS } from '../data/asides';

/**
 * A small phrase matcher over a sentence's scanned, lower-cased words (see `words`): every sentence is
 * read on every ranking, and a set lookup per word is many times cheaper than a long regular
 * expression with look-arounds. Chinese and Japanese, which have no word boundaries, go by substring.
 */
class Phrases {
  private readonly byFirst = new Map<string, string[][]>();

  constructor(phrases: string, private readonly cjk: readonly string[] = [], private readonly prefixes: readonly string[] = []) {
    for (const phrase of phrases.trim().split(/\s*\|\s*/)) {
      const parts = phrase.split(' ');
      const list = this.byFirst.get(parts[0]!) ?? [];
      list.push(parts);
      this.byFirst.set(parts[0]!, list);
    }
  }

  /** The number of words of the longest phrase that starts at word `i`, or 0. */
  lengthAt(scanned: readonly string[], i: number): number {
    let longest = 0;
    for (const parts of this.byFirst.get(scanned[i]!) ?? []) {
      let k = 1;
      while (k < parts.length && scanned[i + k] === parts[k]) k++;
      if (k === parts.length && k > longest) longest = k;
    }
    return longest;
  }

  /** Whether the words (or, for CJK, the text) hold one of the phrases; `first` limits to the opening word. */
  in(scanned: readonly string[], text: string, first = false): boolean {
    const end = first ? Math.min(1, scanned.length) : scanned.length;
    for (let i = 0; i < end; i++) {
      const word = scanned[i]!;
      if (this.lengthAt(scanned, i) > 0) return true;
      for (let p = 0; p < this.prefixes.length; p++) if (word.startsWith(this.prefixes[p]!)) return true;
    }
    return this.cjk.length > 0 && hasWide(text) && this.cjk.some((phrase) => text.includes(phrase));
  }
}

// Each sentence is read by several phrase lists in turn: its scan for wide characters is remembered.
let wideText = '';
let wide = false;
const hasWide = (text: string): boolean => {
  if (text === wideText) return wide;
  wideText = text;
  wide = false;
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) >= 0x3040) return (wide = true);
  return false;
};

// A constraint: a negation, a limit, a condition or an exact requirement, in the languages the product ships.
const CONSTRAINT = new Phrases(
  "not | no | never | none | nothing | nobody | nor | cannot | can't | can’t | don't | don’t | doesn't | doesn’t | won't | won’t | mustn't | mustn’t | shouldn't | shouldn’t | " +
    // Every negation the rewrite pass contracts ("are not" → "aren't") is one still.
    "isn't | isn’t | aren't | aren’t | wasn't | wasn’t | weren't | weren’t | didn't | didn’t | hasn't | hasn’t | haven't | haven’t | wouldn't | wouldn’t | couldn't | couldn’t | needn't | needn’t | " +
    'without | except | unless | only | must | always | avoid | require | required | forbidden | prohibited | maximum | minimum | ' +
    'exactly | at most | at least | if | ' +
    'nicht | nichts | nie | niemals | kein | keine | keinen | keinem | keiner | nur | immer | muss | müssen | darf | dürfen | ohne | außer | genau | ' +
    'höchstens | mindestens | maximal | spätestens | ausschließlich | vermeide | vermeiden | vermeidet | ' +
    'nunca | jamás | nada | ningún | ninguna | ninguno | solo | sólo | solamente | siempre | debe | deben | sin | excepto | salvo | ' +
    'máximo | mínimo | al menos | como mucho | únicamente | exclusivamente | evita | evite | evitar | eviten | ' +
    'ne | jamais | rien | aucun | aucune | seulement | uniquement | toujours | doit | doivent | sans | sauf | au plus | au moins | exclusivement | évitez | évite | éviter | ' +
    'não | nenhum | nenhuma | apenas | somente | sempre | deve | devem | sem | exceto | no máximo | no mínimo | pelo menos | evitem',
  ['必ず', '絶対', 'ないで', 'ません', '禁止', 'のみ', 'だけ', 'しないこと', 'いけない', '必須', '以内', '最大', '最小',
    '不要', '不得', '必须', '务必', '仅', '不能', '切勿', '请勿', '只能', '不允许', '不许', '不准', '严禁', '不可', '绝不', '一定要', '至少', '最多',
    '不是', '不用', '不需要', '无需', '只', '不超过', '除外', 'ではなく', 'じゃなく', '以外', 'しない'],
  ["n'", 'n’'],
);

// Words to the prompt's reader about the prompt, not to the model: thanks, hopes, apologies, hedges
// about the writer's own knowledge ("I hope that's enough", "let me know if …", "honestly I'm not sure
// …"). Such a sentence is never a rule, even with a "not" in it. Greetings count only as the first word.
const META = new Phrases(
  "thanks | thank you | i hope | hope this | hope that | let me know | sorry | i apologise | i apologize | we apologise | we apologize | apologies for | my apologies | bear with me | be patient with me | i guess | " +
    "i think that | feel free | please let | is unclear | honestly | to be honest | i'm not sure | i’m not sure | i'm not great | " +
    "i know it's | i know it’s | i know it is | i know that's | i know that’s | i know this is | " +
    "i'm not good | not sure | not quite sure | i don't know | i don’t know | i'm bad at | i'm terrible at | i am terrible at | " +
    "i'm no expert | is rusty | i'd do it myself | a few notes so | a couple of notes so | so you don't trip | so you do not trip | " +
    // "I'm not 100% sure this is the best way to describe it, but here goes."
    'not 100 sure | here goes | ' +
    'danke | vielen dank | ich hoffe | ehrlich gesagt | wie gesagt | nicht sicher | nicht ganz sicher | weiß nicht | ' +
    'ich hätte da mal eine frage | wenn du mir helfen könntest | wenn sie mir helfen könnten | wenn ihr mir helfen könntet | ' +
    'gracias | espero que | no se me da | perdón | perdona | lo siento | no sé | no estoy seguro | no estoy segura | la verdad es que | sinceramente | ' +
    // "Merci de garder …" asks ("please keep …"): only thanks are meta.
    "merci beaucoup | merci d'avance | merci d’avance | merci pour | merci par avance | mille mercis | j'espère | j’espère | désolé | désolée | pas sûr | pas sûre | ne sais pas | je sais que | pour être honnête | honnêtement | " +
    'obrigado | obrigada | desculpe | desculpa | não sei | tenho certeza | sei lá | ' +
    // "So read this carefully": about reading the prompt, not what to do.
    'read this carefully | read this file carefully | lee esto con atención | léelo con atención | lee esto con cuidado | siga com atenção | leia com atenção | leia isto com atenção | ' +
    'lisez ceci attentivement | lis ceci attentivement | lies das genau | lies dir das genau durch | lest das genau | ' +
    // "Please read the whole thing before you start", "Merci de le lire en entier": about reading the prompt.
    'read the whole thing | read it all | read it in full | read the whole file | follow this carefully | follow these carefully | follow it carefully | le lire en entier | lisez-le en entier | lis-le en entier | ' +
    'léelo entero | léelo completo | leerlo entero | leia tudo | leia até o fim | lê-lo inteiro | lies alles | ganz durchlesen',
  ['最後まで読んで', '仔细阅读本文', 'こんにちは', 'よろしくお願い', 'お世話になって', 'お疲れ様', 'ありがとう', 'すみません', '恐れ入ります', '申し訳', 'わかりません', '你好', '您好', '谢谢', '感谢', '麻烦了', '麻烦大家', '感激不尽', '辛苦了', '希望这', '不确定', '不太清楚', '请你喝', '说实话', '老实说', '想多了', '念のため', '正直なところ', '自信がない', '長くなってしまい', '不清楚的地方', '不明白的地方', '不明な点があれば', '分かりにくい点があれば', 'わかりにくい点があれば', '恐縮', 'ご相談させてください', '完整读一遍', '从头到尾读', '全部読んで'],
  ['entschuldig'],
);
/** The greetings a sentence of a prompt opens on, in the languages the product reads (see GREETING, ROLE). */
export const GREETING_WORDS: readonly string[] = ['hi', 'hello', 'hey', 'hallo', 'hola', 'bonjour', 'salut', 'olá', 'oi'];
const GREETING = new Phrases(GREETING_WORDS.join(' | '));

// "Hey, summarize the notes in five bullets.", "Hi, you are a travel guide.", "Hola, resume el acta.": a
// greeting set off by a comma, then what the prompt asks or who the model is. Only the greeting is talk.
const GREETING_LEAD = new RegExp(
  `^[^\\p{L}]*(?:${GREETING_WORDS.join('|')})(?:${ADDRESSEES})?\\s*[,:;—–-]\\s*(?=\\p{L})`,
  'iu',
);
const ASKS_OR_CASTS = /^(?:you are|you['’]re|(?:can|could|would|will) you|i (?:want|need|would like) you to|i['’]d like you to|du bist|sie sind|eres|usted es|tu es|vous êtes|você é|quiero que|je (?:veux|voudrais) que|quero que)(?![\p{L}])/iu;
function greetsThenAsks(text: string): boolean {
  const lead = GREETING_LEAD.exec(text);
  if (!lead) return false;
  const rest = text.slice(lead[0].length);
  if (HELP_ALONE.test(rest)) return false;
  return isInstruction(rest, true) || isInstruction(rest, false) || ASKS_OR_CASTS.test(rest);
}
// "Hey, can you help me with something?": an opening that asks nothing yet.
const HELP_ALONE = /^(?:(?:can|could|would|will) you (?:please )?)?help(?: me| us)?(?: out)?(?: with (?:something|this|that|a (?:few|couple of) things|a question))?\W*$/iu;
const THANKS_ALONE = new Phrases('merci');
const MAX_THANKS_WORDS = 3;

/** Holds a negation, limit or condition: a rule (see ruleValue, statesRule). */
export function hasConstraint(text: string, scanned: readonly string[] = words(text)): boolean {
  // Portuguese "no" is "em o" ("no BigQuery": in BigQuery), no negation; its negation is "não".
  if (scanned.includes('no') && readsPortuguese(scanned)) scanned = scanned.filter((w) => w !== 'no');
  if (!CONSTRAINT.in(scanned, text)) return DIGIT.test(text) && boundsNumber(scanned);
  // "If possible, you may use web searches": a hedge, no condition, where it is the sentence's one "if"
  // and nothing else constrains it.
  if (!SOFT_CONDITION.in(scanned, text) || scanned.indexOf('if') !== scanned.lastIndexOf('if')) return true;
  return CONSTRAINT.in(scanned.filter((w) => w !== 'if'), text);
}

// Function words Portuguese has and Spanish (whose "no" is a negation) or English has not, and the other
// way round; "ã", "ç", "ê" are Portuguese (or French, which has no "no") too. "Do" opens English rules.
const PORTUGUESE_ONLY = new Set('não em uma você é ao à da do dos das na nas também isso essa esse então são pelo pela seu sua'.split(' '));
const NOT_PORTUGUESE = new Set('el los las del y es una muy pero usted the you your to of and is are with for this that'.split(' '));
const PORTUGUESE_LETTER = /[ãõçêôâ]/;
function readsPortuguese(scanned: readonly string[]): boolean {
  let balance = 0;
  scanned.forEach((word, i) => {
    if (NOT_PORTUGUESE.has(word)) balance--;
    else if ((PORTUGUESE_ONLY.has(word) && (i > 0 || word !== 'do')) || PORTUGUESE_LETTER.test(word)) balance++;
  });
  return balance > 0;
}

// "under 120 words", "fewer than 5 bullets", "within 24 hours", "up to $250": a limit.
const LIMIT = new Phrases(
  "under | below | within | fewer than | less than | shorter than | longer than | up to | unter | weniger als | bis zu | innerhalb von | " +
    "menos de | hasta | dentro de | moins de | jusqu'à | jusqu’à | até",
);

const DIGIT = /\d/;

/** Whether a word that bounds is followed by a number (the words hold no currency signs). */
function boundsNumber(scanned: readonly string[]): boolean {
  for (let i = 0; i + 1 < scanned.length; i++) {
    const length = LIMIT.lengthAt(scanned, i);
    if (length === 0) continue;
    const next = scanned[i + length]?.charCodeAt(0) ?? 0;
    if (next >= 48 && next <= 57) return true;
  }
  return false;
}

const SOFT_CONDITION = new Phrases('if possible | if needed | if necessary | if applicable | if you want | if you like | if you wish | if you can');

/**
 * Talk about the prompt itself, not to the model. A sentence that also states a fact the reader cannot
 * guess ("I'm not sure about this: we have 4 million rows", "… of `order_id`") says something, whatever it
 * opens with; an acronym alone ("Perdona …, de SQL voy justito") states none.
 */
export const isMeta = (text: string, scanned: readonly string[] = words(text)): boolean =>
  ((META.in(scanned, text) || (GREETING.in(scanned, text, true) && !greetsThenAsks(text)) || (scanned.length <= MAX_THANKS_WORDS && THANKS_ALONE.in(scanned, text, true)) || presentsPrompt(text, scanned)) && specifics(text).marked === 0 && !asksWithThanks(text) && !ASKS_AFTER_LABEL.test(text) && !(hasWide(text) && WIDE_ASK.test(text) && !IF_UNCLEAR_WIDE.test(text))) ||
  describesItself(text, scanned);

// The question itself, after a hedge that labels it: "I guess what I'm really asking is: why …?".
const ASKS_AFTER_LABEL = /(?:what i['’]?m (?:really |actually )?asking(?: is)?|what i (?:really |actually )?want to know(?: is)?|my (?:real |actual |main )?question is|was ich (?:eigentlich )?wissen (?:will|möchte)|meine (?:eigentliche )?frage ist|lo que (?:realmente )?quiero saber(?: es)?|mi pregunta es|ce que je veux savoir|ma question est|o que (?:eu )?quero saber(?: é)?|minha pergunta é)\s*[:：][^?？]*[?？]\s*$/iu;

// The work asked for by name beside an apology or thanks: "恐れ入りますが、以下の議事録の要約をお願いいたします。"
// ("よろしくお願いします" asks for nothing; "不好意思…想请帮忙看看" asks for help not yet named).
// "何か分かりにくい点があれば教えてください。": "let me know if anything is unclear" asks about the prompt, not for work.
const IF_UNCLEAR_WIDE = /(?:不明な|分かりにくい|わかりにくい|気になる|不清楚的|不明白的)(?:点|ところ|地方)があれば|(?:不清楚|不明白)的地方/u;
// In Chinese, the work named after what asks for it: "我这边有一段产品说明需要从中文翻译成英文，…，真的非常感谢你抽时间帮忙。"
// ("帮我处理一个信息提取的任务" names a kind of task, not the work).
const WIDE_ASK = /[^、，。\s]{2}をお願い(?:します|いたします|致します|できますか|できますでしょうか)|(?<!させて)いただけ(?:ます|ません|ない)|教えて(?:ください|いただけ)|(?:请你?|帮我|帮忙|麻烦你|需要|想请你)[^，。！？,]{0,12}?(?:翻译|总结|概括|摘要|改写|润色|校对|整理|分析|检查|提取|审查|优化|重写)(?!的)/u;
// Thanks that close a sentence which asks for the work: "Can you rewrite it to be faster, thanks!",
// "Pourriez-vous m'aider à rédiger un e-mail …, merci beaucoup ?", "Write me a script, thanks!".
const THANKS_TAIL = /[,;—–-]\s*(?:(?:many |a million |thanks a million|so many )?thanks|thank you|merci(?: beaucoup| mille fois| d['’]avance)?|(?:vielen )?dank(?:e(?: dir| euch| schön| sehr)?)?|(?:muchas |mil )?gracias|obrigad[oa]|muito obrigad[oa])(?: (?:so much|a lot|in advance|heaps|a million|de antemano|desde já|schon mal))?[\s!.?¡¿]*$/iu;
const ASKS_MODEL = new RegExp(`^(?:(?:can|could|would|will) you|i (?:want|need|would like) you to|i['’]d like you to)(?![\\p{L}])|(?<![\\p{L}])(?:${POLITE_ASKS})(?![\\p{L}])`, 'iu');
// Asking about the prompt, or for help not yet named: "Could you let me know if anything is unclear, thanks?".
const ASKS_ABOUT_PROMPT = /\b(?:let (?:me|us) know|bear with|forgive)\b/iu;

/** Whether the sentence asks the model for the work, with thanks at its end. */
function asksWithThanks(text: string): boolean {
  const tail = THANKS_TAIL.exec(text);
  if (!tail) return false;
  const rest = text.slice(GREETING_LEAD.exec(text)?.[0].length ?? 0, tail.index).replace(/^[^\p{L}]+/u, '');
  if (ASKS_ABOUT_PROMPT.test(rest) || HELP_ALONE.test(rest)) return false;
  return ASKS_MODEL.test(rest) || isInstruction(rest, true) || isInstruction(rest, false);
}

// "This file is for any AI coding agent (Codex, Claude, …) working in this repo": the prompt saying what
// it is, whatever it names on the way; "This file lists the rules:" shows them, and "…; follow them" asks.
const DESCRIBES_ITSELF =
  /^[^\p{L}]*(?:(?:this|the) (?:file|document|doc|guide|prompt|page|readme)\s+(?:is (?:for|meant|intended|written)|describes|explains|contains|covers|collects|gives|tells|documents)|(?:diese datei|dieses dokument) (?:ist für|beschreibt|erklärt|enthält)|ce (?:fichier|document) (?:est destiné|est pour|décrit|explique|contient)|este (?:archivo|documento|arquivo) (?:es para|é para|describe|descreve|explica|contiene|contém))(?![\p{L}])|^(?:このファイルは|本文件|这个文件|这份文件|此文件|本文档)/iu;
const describesItself = (text: string, scanned: readonly string[]): boolean =>
  DESCRIBES_ITSELF.test(text) && !/[:：;]/.test(text) && !CONSTRAINT.in(scanned, text);

// "So this is the system prompt for our support bot", "je vous mets ci-dessous le prompt complet": the
// writer showing the prompt to its reader. Not "Here is the prompt to improve:", which shows material.
const PRESENTS_PROMPT =
  /(?:\b(?:this is|here's|here’s|here is|below is|i've pasted|i have pasted)|voici|je vous mets|hier ist|aquí (?:está|tienes)|te paso|segue|aqui está)\s+(?:[\p{L}'’-]+\s+){0,4}?prompt(?![\p{L}])/iu;
const presentsPrompt = (text: string, scanned: readonly string[]): boolean =>
  text.includes('rompt') && PRESENTS_PROMPT.test(text) && !/[:：]\s*$/.test(text) && !CONSTRAINT.in(scanned, text);

/** A greeting alone: "Hi!", "Hey, welcome!", "Hello there." */
export const isGreeting = (text: string, scanned: readonly string[] = words(text)): boolean => scanned.length <= MAX_GREETING_WORDS && GREETING.in(scanned, text, true);
const MAX_GREETING_WORDS = 3;

/** Holds a code or identifier ("CTE", "order_id", "E-4021", "v3.14"): something specific is said. */
export const hasCode = (text: string): boolean => specifics(text).codes > 0;

/** Says at least two specific things (codes or identifiers; a name counts half): as specific as ruleValue rates. */
export function isSpecific(text: string): boolean {
  const { codes, names } = specifics(text);
  return codes + 0.5 * names >= FULLY_SPECIFIC;
}
const FULLY_SPECIFIC = 2;

/**
 * What makes a sentence of a prompt worth keeping beyond its words (`sentence`: the sentence, or how
 * many protected literals the text holds): a rule (a constraint or condition) outranks description,
 * and a specific sentence (literals, codes, numbers, names) outranks a vague one. Talk about the prompt
 * itself is no rule (see metaPenalty); quoted material has no rules at all (see specificity).
 */
export function ruleValue(text: string, sentence: Sentence | number): number {
  if (typeof sentence !== 'number') {
    const { rule, meta } = signals(sentence, text);
    return meta ? 0 : rule;
  }
  const scanned = words(text);
  return isMeta(text, scanned) ? 0 : constraintValue(text, scanned) + computeSpecific(text, sentence);
}

/**
 * The part of ruleValue that says how specific a sentence is, without its constraint: a text to read
 * (an article) has no rules, and its "not" or "only" tells nothing of its value.
 */
export function specificity(text: string, sentence: Sentence): number {
  return signals(sentence, text).specific;
}

/**
 * ruleValue, or with `material` specificity, of what a transcript's turn says from `from` on: its speaker's
 * name and time ("[09:03] Rafael: vi sim, que sofrimento") are no fact of the turn, and would make every
 * turn as specific as the one that states the budget.
 */
export function saidValue(text: string, sentence: Sentence, from: number, material: boolean): number {
  let offset = 0;
  let literals = 0;
  for (const piece of sentence.pieces) {
    if (piece.locked && offset >= from) literals++;
    offset += piece.text.length;
  }
  const said = text.slice(from);
  return material ? computeSpecific(said, literals) : ruleValue(said, literals);
}

/** What a constraint (a negation, limit or condition) adds to a rule's value. */
const constraintValue = (text: string, scanned: readonly string[]): number => (hasConstraint(text, scanned) ? 0.6 : 0);

function computeSpecific(text: string, literals: number): number {
  const { codes, names } = specifics(text);
  return 0.35 * Math.min(1, (literals + codes + 0.5 * names) / FULLY_SPECIFIC);
}

// ASCII character classes for the scan below; anything else is looked at only when it occurs.
const GAP = 1; // between words: white space and the punctuation around them ("E-4021," keeps its "-")
const EDGE = 2; // a gap only at a word's start: "v3.14.2." and "don't" keep theirs inside
const MARK = 3; // a digit or an underscore: a code
const UPPER = 4;
const LOWER = 5;
const ASCII = new Uint8Array(128);
for (const ch of ' \t\n\r,;:!?()"[]{}') ASCII[ch.charCodeAt(0)] = GAP;
for (const ch of ".'") ASCII[ch.charCodeAt(0)] = EDGE;
for (let c = 48; c <= 57; c++) ASCII[c] = MARK;
ASCII[95] = MARK;
for (let c = 65; c <= 90; c++) ASCII[c] = UPPER;
for (let c = 97; c <= 122; c++) ASCII[c] = LOWER;

const WHITE = new Set([32, 9, 10, 13, 0xa0]);

function classOf(text: string, i: number): number {
  const c = text.charCodeAt(i);
  if (c < 128) return ASCII[c]!;
  if (c === 0xa0 || c === 0x201c || c === 0x201d) return GAP;
  if (c === 0x2018 || c === 0x2019) return EDGE;
  const ch = text[i]!;
  return ch !== ch.toLowerCase() ? UPPER : ch !== ch.toUpperCase() ? LOWER : 0;
}

/**
 * What a reader cannot guess, counted in one scan of the words: codes and identifiers (a digit, an
 * underscore, a run of capitals as in E-4021 or HTTP, camelCase) and names (a capitalised word after
 * the first). Every sentence is read on every ranking: a table lookup per character, no pattern.
 */
function specifics(text: string): { codes: number; names: number; marked: number } {
  let codes = 0;
  let names = 0;
  let marked = 0; // codes with a digit, an underscore or an inner capital: not a bare acronym
  let words = 0;
  const n = text.length;
  for (let i = 0; i < n; ) {
    let k = classOf(text, i);
    while (k === GAP || k === EDGE) {
      if (++i >= n) return { codes, names, marked };
      k = classOf(text, i);
    }
    // A name: a capital, then a small letter ("Acme", not "I" or "HTTP"), preceded by white space.
    const startsName = k === UPPER && i + 1 < n && classOf(text, i + 1) === LOWER && i > 0 && WHITE.has(text.charCodeAt(i - 1));
    let mark = false;
    let capitals = 0;
    let camel = false;
    let previousLower = false;
    for (; i < n && k !== GAP; k = ++i < n ? classOf(text, i) : GAP) {
      if (k === MARK) mark = true;
      else if (k === UPPER) {
        capitals++;
        if (previousLower) camel = true;
        previousLower = false;
      } else previousLower = k === LOWER;
    }
    if (mark || camel) marked++;
    if (mark || capitals >= 2 || camel) codes++;
    else if (words > 0 && startsName) names++;
    words++;
  }
  return { codes, names, marked };
}

/**
 * Talk about the prompt ranks below everything that says something, with or without a task; quoted
 * material (a draft to rewrite: "Hi Mr. Okafor, … Thanks, Dana") is what the prompt is about.
 */
export const metaPenalty = (text: string, sentence: Sentence, material = false): number => (signals(sentence, text).meta && !material ? 0.6 : 0);

// Every ranking (and each tightening round re-ranks) reads these for every sentence: once per text.
const cache = new WeakMap<Sentence, { text: string; rule: number; specific: number; meta: boolean }>();

function signals(sentence: Sentence, text: string): { rule: number; specific: number; meta: boolean } {
  const cached = cache.get(sentence);
  if (cached && cached.text === text) return cached;
  const scanned = sentenceWords(sentence);
  const meta = isMeta(text, scanned);
  const literals = sentence.pieces.filter((p) => p.locked).length;
  const specific = computeSpecific(text, literals);
  const fresh = { text, meta, specific, rule: constraintValue(text, scanned) + specific };
  cache.set(sentence, fresh);
  return fresh;
}
