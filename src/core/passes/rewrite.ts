import { ASIDE, ASIDE_GUARD, CONTRACTIONS, COURTESY, ENOUGH_SAID, OPENERS, REWRITES } from '../data/rewrites';
import { ASIDES, ASIDE_CLAUSE, ASIDE_GUARD as FOREIGN_GUARD, FILLER_WORDS, GREETING_OPENING, MAX_ASIDE_CHARS, MAX_ASIDE_CLAUSE_CHARS, MAX_ASIDE_WORDS, NOUN_BEFORE, OPENING_HEDGE } from '../data/asides';
import { hasCode, isMeta } from '../scoring/rules';
import { isInstruction } from '../scoring/structure';
import { editableSentences, sentenceText, type Doc, type Piece, type Sentence } from '../doc';
import { PhraseDictionary, type PhraseMatch } from '../text/phrases';
import { opensSentenceAt } from '../text/sentences';
import { remeasure, type Pass } from './context';
import type { Tokenizer } from '../tokenizer';
import { agreeArticle } from '../text/articles';
import { negatedBefore } from '../text/words';

// Hedges go first so they cannot hide a longer phrase: "it would be really great if you could" must
// not lose "if you could please" before "really" is gone. Requests ("please", "kindly") are phrases.
const HEDGES = new PhraseDictionary(REWRITES.filter(([from, to]) => to === '' && !/\s|please|kindly/.test(from)));
const PHRASES = new PhraseDictionary([...REWRITES, ...OPENERS.map(([from, to]) => [from, to, 'opening'] as const)]);
// Contractions run last, once the phrases are stable: "I would" must not become "I'd" before
// "what I would like you to do" has had its chance.
const CONTRACTED = new PhraseDictionary(CONTRACTIONS.map(([from, to]) => [from, to, 'beforeWord'] as const));
// Every phrase of the three, to skip a piece none of them can touch.
const ANY_PHRASE = new PhraseDictionary([...REWRITES, ...OPENERS, ...CONTRACTIONS]);

/**
 * "eine Bitte", "eine kurze Bitte": the noun, not the particle — after a determiner, or written with its
 * capital after a word in lower case (the particle has one only where it opens what it asks).
 */
const isNoun = (text: string, index: number, word: string): boolean =>
  NOUN_BEFORE.test(text.slice(Math.max(0, index - 12), index)) || (word === 'Bitte' && /\p{Ll}[ \t]+$/u.test(text.slice(Math.max(0, index - 4), index)));

/** The filler words of the other languages (FILLER_WORDS), found as whole words; removed wherever they stand. */
const FOREIGN_FILLER = {
  pattern: new RegExp(`(?<![\\p{L}'’])(?:${FILLER_WORDS.map((w) => w.replace(/'/g, "['’]")).join('|')})(?![\\p{L}])`, 'giu'),
  find(text: string): PhraseMatch[] {
    const found: PhraseMatch[] = [];
    for (const m of text.matchAll(this.pattern)) if (!isNoun(text, m.index, m[0])) found.push({ index: m.index, text: m[0], replacement: '', opening: false });
    return found;
  },
};

/**
 * Pass 3: rewrites wordy phrases with the curated dictionary in free (unprotected) English prose, removes
 * the closed list of filler words in German, Spanish, French and Portuguese, and drops asides to the
 * reader in every language it knows. Keeps the case of the first letter and the punctuation around each phrase.
 */
export const rewrite: Pass = {
  name: 'rewrite',
  lossy: false,
  run(doc, { tokenizer }) {
    // A prompt that is nothing but courtesy ("hi", "Thanks!") is what the user wants to send: it comes back as is.
    if (onlyCourtesy(doc)) return;
    const dropped = rewriteSentences(doc, tokenizer);
    // Only a salutation that went ("Hallo zusammen,") leaves a line to capitalize.
    if (dropped.some((sentence) => /,\s*$/.test(sentenceText(sentence)))) capitalizeAfterSalutation(doc, new Set(dropped), tokenizer);
  },
};

/**
 * A letter's salutation ends on a comma and the next line goes on in lower case ("Hallo zusammen,\n\nich
 * hoffe …"): once the salutation went, that line opens the prompt and takes its capital.
 */
function capitalizeAfterSalutation(doc: Doc, dropped: ReadonlySet<Sentence>, tokenizer: Tokenizer): void {
  let salutation = false;
  for (const block of doc.blocks) {
    for (const sentence of block.sentences) {
      if (sentence.removed) {
        if (dropped.has(sentence)) salutation = /,\s*$/.test(sentenceText(sentence));
        continue;
      }
      const first = sentence.pieces[0];
      if (salutation && first && !first.locked && /^[^\p{L}]*\p{Ll}/u.test(first.text)) {
        first.text = upperFirst(first.text);
        remeasure(sentence, tokenizer);
      }
      salutation = false;
    }
  }
}

/** The rewording, filler and aside removal of the pass, sentence by sentence; the sentences it dropped whole. */
function rewriteSentences(doc: Doc, tokenizer: Tokenizer): Sentence[] {
  const dropped: Sentence[] = [];
  const drop = (sentence: Sentence) => {
    sentence.removed = true;
    dropped.push(sentence);
  };
  if (!doc.english) {
    // Other languages have no phrase dictionary, only filler words: their asides go whole, an aside clause
    // goes from a sentence that says something else, and "bitte" or "por favor" from where they stand.
    for (const sentence of editableSentences(doc)) {
      if (!sentence.pinned && isForeignAside(sentence.pieces)) drop(sentence);
      else if (dropAsideClauses(sentence.pieces) || dropOpeningHedge(sentence.pieces) || dropFiller(sentence.pieces)) remeasure(sentence, tokenizer);
    }
    return dropped;
  }
  for (const sentence of editableSentences(doc)) {
    if (isCourtesy(sentence.pieces)) {
      drop(sentence);
      continue;
    }
    const asked = POLITE_QUESTION.test(sentenceText(sentence));
    const written = sentence.pieces.map((piece) => piece.text);
    const tokens = sentence.tokens;
    let changed = dropInterjection(sentence.pieces);
    sentence.pieces.forEach((piece, i) => {
      if (piece.locked) return;
      // Again until stable: removing "really" can complete "it would be great if you could".
      const before = piece.text;
      if (!ANY_PHRASE.opensIn(before)) return;
      piece.text = rewritePiece(piece.text, i === 0, HEDGES);
      for (let round = 0; round < 3; round++) {
        const next = rewritePiece(piece.text, i === 0, PHRASES);
        if (next === piece.text) break;
        piece.text = next;
      }
      piece.text = rewritePiece(piece.text, i === 0, CONTRACTED);
      if (piece.text !== before) changed = true;
    });
    if (changed && asked) endAsked(sentence);
    if (changed && isCourtesy(sentence.pieces)) drop(sentence);
    else if (changed) {
      remeasure(sentence, tokenizer);
      // A rewording that costs tokens ("Please tighten" → "Tighten": 6 → 7) is no saving: the sentence stays as written.
      if (sentence.tokens > tokens && !sentence.removed) {
        sentence.pieces.forEach((piece, i) => (piece.text = written[i]!));
        sentence.tokens = tokens;
      }
    }
  }
  return dropped;
}

// A line that introduces what follows: "Here is the question from the employee, I hope it makes sense:".
const INTRODUCES = /\b(?:here(?:'s|’s| is| are)|below (?:is|are)|the following)\b.*[:：]\s*$/i;

// The request phrases whose removal leaves the verb after them as an imperative.
const LEAVES_IMPERATIVE = /(?:you could|you could possibly|as to|you please)$/i;
const OPENING_OPINION = /^(\s*)(?:i|we)\s+(?:really\s+|honestly\s+|personally\s+)?(?:think|believe|feel|guess|suppose)(?:\s+that)?\s+$/i;
// What may stand before the imperative a request phrase leaves: a clause's opening, or a linking word.
const CLAUSE_OPEN_BEFORE = /(?:^|[,;:(—–]|\s-|(?<![\p{L}])(?:and|but|so|then|also|now|plus|or|finally|lastly|next|first|second|third|additionally|otherwise|meanwhile))\s*$/iu;

const MANNER = new Set(['honestly', 'literally', 'truly', 'kindly']);
const HEDGES_ABSOLUTE = new Set(['basically', 'pretty much', 'essentially', 'practically', 'virtually']);
// ("Basically, never store card numbers": set off by its comma, the word opens the sentence and hedges nothing.)
const ABSOLUTE_AFTER = /^[ \t]+(?:never|always|nothing|nobody|no one|none|all|every|everything|everyone|everywhere|nowhere|no)(?![\p{L}])/iu;
// Not the "so" of "say so honestly" or "do so", which stands for what is said or done.
const OPENS_CLAUSE_BEFORE = /(?:,|(?:^|\s)(?:and|but|(?<!\b(?:say|said|says|do|did|does|done|think|thought)\s)so|or|yet|because|though))\s*$/i;
// "You should be able to recommend …" says what the model can do: "Be able to recommend" is no order.
const BE_ABLE = /^\s+be able\b/i;
// "… reply with the solution, not write any explanations": a second verb under the opener's "you".
const SECOND_VERB = /\b(?:and|or|but)\s+not\s+\p{Ll}|,\s*not\s+(?!(?:the|a|an|my|your|our|this|that|these|those|in|on|at|for|to|with|only|just|as|by|from|of|more|less|too|so|all|any|every|one|even|yet)\b)\p{Ll}/u;

const SECOND_INFINITIVE = /(?:,\s*|\b(?:and|or|but)\s+)(?:not\s+|never\s+)?to\s+\p{Ll}|\brather than to\s/u;

// "Could you please ask me for …?" asks; once the request is "Ask me for …", it ends as one, after a
// label too ("1. **Request for Input**: Could you please …?", "Note: could you please …?").
const LABEL = String.raw`(?:\d+[.)]\s+)?(?:\*\*[^*\n]{1,40}\*\*|[\p{L}][\p{L} ]{0,30}):\s+`;
const POLITE_QUESTION = new RegExp(String.raw`^\W*(?:${LABEL})?(?:could|can|would) you (?:please|be so kind as to)\s`, 'iu');
const STILL_ASKS = new RegExp(String.raw`^\W*(?:${LABEL})?(?:could|can|would) you\b`, 'iu');

/** Ends a question turned into a request ("Ask me for the statement?") with a full stop. */
function endAsked(sentence: Sentence): void {
  const pieces = sentence.pieces;
  const last = pieces[pieces.length - 1];
  // Still put as a question ("Could you tell me …?"): it keeps its question mark.
  if (!last || last.locked || STILL_ASKS.test(sentenceText(sentence))) return;
  const mark = /\?(\s*)$/.exec(last.text);
  if (mark) pieces[pieces.length - 1] = { ...last, text: last.text.slice(0, mark.index) + '.' + mark[1] };
}

/** True when every sentence of the prompt is a courtesy or an aside and nothing else (code, a list, a quote) is there. */
function onlyCourtesy(doc: Doc): boolean {
  const sentences = editableSentences(doc);
  if (sentences.length === 0) return false;
  for (const block of doc.blocks) {
    if (block.removed) continue;
    if (block.kind !== 'prose' || block.verbatim) return false;
  }
  return sentences.every((sentence) => isAsidePieces(sentence.pieces, doc.english));
}

/** Removes FOREIGN_FILLER from the free pieces of a sentence; whether anything went. */
function dropFiller(pieces: Piece[]): boolean {
  let changed = false;
  pieces.forEach((piece, i) => {
    if (piece.locked) return;
    const text = rewritePiece(piece.text, i === 0, FOREIGN_FILLER);
    // A piece that was only filler keeps its text: a sentence is never emptied here.
    if (text !== piece.text && text.trim() !== '') (piece.text = text), (changed = true);
  });
  return changed;
}

const GERMAN_SUBORDINATE = /^[ \t]*(?:dass|daß|ob|wenn|weil|wie|was|wer|wo|wann|warum|damit|sodass|falls|bevor|nachdem|obwohl)(?![\p{L}])/iu;

/** Rewrites the text of one free piece; `opensSentence` tells whether offset 0 starts its sentence. */
function rewritePiece(text: string, opensSentence: boolean, dictionary: Pick<PhraseDictionary, 'find'>): string {
  let out = '';
  let cursor = 0;
  // After removing a sentence's opening words, the next letter written opens it: "please take" → "Take".
  let capitalize = false;
  for (const match of dictionary.find(text)) {
    const start = match.index;
    let atStart = opensSentenceAt(text, start, opensSentence) || (capitalize && text.slice(cursor, start).trim() === '');
    const replacement = match.replacement;
    // A polite frame leaves its verb to stand as the imperative: only where a clause opens ("For the summary,
    // it would be helpful if you could use …"), never after "not" ("… if you could not mention" is no "Not
    // mention"), nor inside someone's words ("The team said it would be great if you could ship it"). An
    // opinion that opens the sentence goes with it: "I think it would be great if you could follow …" → "Follow …".
    if (replacement === '' && LEAVES_IMPERATIVE.test(match.text)) {
      if (/^\s+not(?![\p{L}])/iu.test(text.slice(start + match.text.length))) continue;
      const said = out + text.slice(cursor, start);
      const opinion = !atStart && opensSentence ? OPENING_OPINION.exec(said) : null;
      if (opinion) (out = opinion[1]!), (cursor = start), (atStart = true);
      else if (!atStart && !CLAUSE_OPEN_BEFORE.test(said)) continue;
    }
    if ((replacement.endsWith(':') || match.opening) && !atStart) continue;
    let end = start + match.text.length;
    // "My first command is to give …" has no label to become; "You should only inform and not solve" no
    // imperative ("Only inform and not solve"): the modal carries both verbs.
    if (replacement.endsWith(':') && /^[ \t]+to\s/i.test(text.slice(end))) continue;
    if (match.opening && replacement === '' && (SECOND_VERB.test(text.slice(end)) || BE_ABLE.test(text.slice(end)))) continue;
    // "Your role is to assist …, not to take unilateral action": the later "to" hangs on the opener's "is".
    if (match.opening && replacement === '' && /\bto$/i.test(match.text) && SECOND_INFINITIVE.test(text.slice(end))) continue;
    // "answer it honestly", "translate it literally": after a word, such an adverb says how; where it opens
    // a sentence or clause, or is set off by a comma, it is filler ("Honestly, …", "and honestly some …").
    if (MANNER.has(match.text.toLowerCase()) && !atStart && !OPENS_CLAUSE_BEFORE.test(text.slice(Math.max(0, start - 12), start))) continue;
    // Emphasis stays as written: "do NOT", "DO NOT", "I WILL".
    if (dictionary === CONTRACTED && /\p{Lu}/u.test(match.text.slice(1))) continue;
    // Before an absolute it hedges: "we basically never do" is "almost never", not "never".
    if (replacement === '' && HEDGES_ABSOLUTE.has(match.text.toLowerCase()) && ABSOLUTE_AFTER.test(text.slice(start + match.text.length))) continue;
    // After a negation it softens it: "not very technical" is not "not technical", nor "nicht wirklich" "nicht".
    if (replacement === '' && negatedBefore(text, start)) continue;
    // A word named, not used: "End every message with please and thank you", "mit bitte und danke".
    if (replacement === '' && MENTIONED_AFTER.test(text.slice(Math.max(0, start - 12), start))) continue;
    const before = text.slice(cursor, start);
    out += capitalize ? upperFirst(before) : before;
    if (before !== '') capitalize = false;
    if (replacement === '') {
      const closed = text[end] === ',';
      // German sets off a subordinate clause with a comma, which stays: "Prüfen Sie bitte, ob …" → "Prüfen Sie, ob …";
      // so does the comma that ends a clause on the filler: "Den gibt es wirklich, Hammer Straße 112" → "Den gibt es, …".
      const endsClause = dictionary === FOREIGN_FILLER && closed && !atStart && !/,[ \t]*$/.test(out + before) && !text.slice(end + 1).trimStart().toLowerCase().startsWith(match.text.toLowerCase());
      // A "please" that closes a clause leaves the comma that ends it: "no emojis please, my boss hates them" →
      // "no emojis, my boss hates them".
      // ("so please, never let …" → "so never let …": there the comma sets off the "please").
      const closesClause = closed && !atStart && /^please$/i.test(match.text) && !/(?:,|\b(?:and|but|or|so|then|yet|also|now))[ \t]*$/i.test(out + before);
      if (!(closed && !atStart && GERMAN_SUBORDINATE.test(text.slice(end + 1))) && !endsClause && !closesClause) end = skipFollowingComma(text, end);
      // A parenthetical goes with both its commas ("and, honestly, I'm" → "and I'm"; "We, honestly, want"
      // → "We want"), but one stays where a new clause or phrase follows ("that's okay, honestly, it just …",
      // "a standard setup, really, nothing too fancy").
      // So does one before a negated imperative: "dímelo aparte, por favor, no lo metas" → "dímelo aparte, no lo metas".
      const newClause =
        (/^(?:i|you|we|they|it|he|she|this|that|there|nothing|something|everything|no|not|never|just|especially|mostly|mainly|only|except|including|like|with|without)\b/i.test(text.slice(end)) && !/\b(?:and|but|or|so|yet|because|though|although|since|unless|until|while|whereas|that|if|when|then|which|who)[ \t]*,[ \t]*$/i.test(out)) ||
        (/^por favor$/i.test(match.text) && /^(?:no|não|nunca)\s/i.test(text.slice(end)));
      if (closed && !atStart && !newClause) out = out.replace(/,[ \t]*$/, ' ');
      if (!atStart) out = agreeArticle(out.replace(/[ \t]+$/, end < text.length && /[,.;:!?)]/.test(text[end]!) ? '' : ' '), text.slice(end));
      else out = out.replace(/[ \t]+$/, /[.!?:;,][ \t]+$/.test(out) ? ' ' : ''); // "Note: please do" → "Note: Do"
      if (atStart) capitalize = true;
    } else {
      const replaced = matchCase(match.text, replacement);
      out += capitalize ? upperFirst(replaced) : replaced;
      capitalize = false;
      // "My first request is: give me" → "First request: give me", one colon.
      if (replacement.endsWith(':')) end = skipFollowingComma(text, end + (/^[ \t]*:/.exec(text.slice(end))?.[0].length ?? 0));
      if (replacement.endsWith(':') && !/^\s/.test(text.slice(end))) out += ' ';
    }
    cursor = end;
  }
  if (cursor === 0) return text;
  out += capitalize ? upperFirst(text.slice(cursor)) : text.slice(cursor);
  // A space before punctuation that ends a clause goes ("it ."), not before a word that starts with it (".NET"),
  // nor where the writer puts one, as French does ("c'est gentil !").
  const spaced = new Set<string>();
  for (const m of text.matchAll(SPACED_MARK)) spaced.add(m[1]!);
  return out.replace(/(?<=\S) {2,}/g, ' ').replace(/ +([,;.!?])(?=\s|$)/g, (all, mark: string) => (spaced.has(mark) ? all : mark)).replace(/,\s*,/g, ',').replace(/,(\s*[.;:!?)\]）])/g, '$1');
}
const SPACED_MARK = /[ \u00a0\u202f]([;!?])(?=\s|$)/g;

const MENTIONED_AFTER = /(?:^|[^\p{L}])(?:with|say|says|saying|word|mit|sag|sagen|con|decir|di|avec|dire|dis|com|dizer|diga)\s+$/iu;

// The first letter, after any emphasis or opening mark: "Bitte **kein** groupBy" → "**Kein** groupBy".
const upperFirst = (text: string): string => text.replace(/^([*_"“„«(]*)(\p{Ll})/u, (_, marks: string, letter: string) => marks + letter.toUpperCase());

function skipFollowingComma(text: string, end: number): number {
  const after = /^,?[ \t]*/.exec(text.slice(end))![0];
  return end + after.length;
}

function matchCase(source: string, replacement: string): string {
  if (source.length > 1 && source === source.toUpperCase() && /\p{L}/u.test(source)) return replacement.toUpperCase();
  if (/^\p{Lu}/u.test(source)) return replacement.charAt(0).toUpperCase() + replacement.slice(1);
  return replacement;
}

function isCourtesy(pieces: readonly Piece[]): boolean {
  if (pieces.length !== 1 || pieces[0]!.locked) return false;
  const text = pieces[0]!.text.trim();
  return COURTESY.test(text) || isAside(text);
}

/** A sentence the rewrite pass drops whole as an aside to the reader, in the text's language. */
export const isAsideText = (text: string, english: boolean): boolean => isAsidePieces([{ text, locked: false }], english);

/**
 * Said to the prompt's reader rather than to the model: an aside the rewrite pass drops, or talk about the
 * prompt itself ("I hope this helps", "Thanks, Dana", "Saludos, Nuria").
 */
export const isSaidToReader = (text: string, english: boolean): boolean => isMeta(text) || isAsideText(text, english);

const isAsidePieces = (pieces: readonly Piece[], english: boolean): boolean => (english ? isCourtesy(pieces) : isForeignAside(pieces));

// Where to go or whom to ask, beside the aside: "Falls etwas unklar ist, lieber im Kanal #team-orders nachfragen".
const NAMES_PLACE = /(?<![\p{L}\p{N}])[#@][\p{L}\p{N}_-]+|https?:\/\/|[\p{L}\p{N}._-]+@[\p{L}\p{N}-]+\.\p{L}{2,}/u;

const GREETED = /^\s*\p{L}+\s*[!.…]*\s*$/u;

/** A German, Spanish, French, Portuguese, Japanese or Chinese aside ("¡Mil gracias de antemano!", "よろしくお願いいたします。"). */
function isForeignAside(pieces: readonly Piece[]): boolean {
  if (pieces.length !== 1 || pieces[0]!.locked) return false;
  const text = pieces[0]!.text.trim();
  const wide = /[\u3040-\u9fff]/.test(text);
  if (wide ? text.length > MAX_ASIDE_CHARS : text.split(/\s+/).length > MAX_ASIDE_WORDS) return false;
  // An aside in brackets is a remark on the sentence, which says something else: "Abaixo está a transcrição
  // (meio bagunçada, desculpa)."
  const open = text.replace(/\([^)]*\)|（[^）]*）/g, ' ');
  // "Hola, resume el acta en cinco puntos.": a greeting, then something said that is no aside itself; only
  // the greeting goes (dropOpeningHedge).
  const greeting = GREETING_OPENING.exec(open);
  // "Olá, pessoal!", "Hola, chicos!": the greeting and whom it greets, nothing else.
  if (greeting && GREETED.test(open.slice(greeting[0].length))) return true;
  if (greeting) {
    const said = open.slice(greeting[0].length);
    if (said.replace(ASIDES, ' ') === said) return false;
  }
  const rest = open.replace(ASIDES, ' ');
  if (rest === open || FOREIGN_GUARD.test(rest) || hasCode(rest) || NAMES_PLACE.test(rest)) return false;
  // A Chinese or Japanese sentence with an aside goes whole unless it says more beside it than one clause of
  // talk ("各位大佬好，想请教一个比较头疼的问题！"): "大家好，我是做后端的，最近在把一个老服务迁到 asyncio 上，
  // 遇到了点问题，想请教一下。" says who writes and about what.
  // An aside that runs over a comma ("如果有任何不清楚的地方，请直接问我") is one clause of talk.
  return !wide || text.replace(ASIDES, (aside) => aside.replace(/[，、,]/g, '')).split(/[，、,]/).filter(saysSomething).length < 2;
}

/** A clause with no aside in it and more than an interjection ("嗯", "好的"): "我是做后端的". */
function saysSomething(clause: string): boolean {
  const bare = clause.replace(/[\s\p{P}～~]/gu, '');
  return bare.length > 4 && bare.replace(ASIDES, '') === bare && !ASIDE_CLAUSE.test(bare);
}

// A clause of a Chinese or Japanese sentence with the comma that ends it.
const WIDE_CLAUSE = /[^，、。！？；]+(?:[，、]|$)/gu;

// A transcript line's speaker before its first clause: "王磊：".
const SPEAKER_LABEL = /^[\p{L}\p{N}·・ ]{1,12}[：:]\s*/u;

/**
 * Drops the clauses of a Chinese or Japanese sentence that are asides (a greeting, an apology, a hedge
 * about the writer: ASIDES, ASIDE_CLAUSE) and hold no request, limit or literal; never every clause (a
 * sentence of asides alone is isForeignAside's to judge). "大家好，不好意思又来麻烦了，这个需求领导催得比较急。"
 * → "这个需求领导催得比较急。" Returns whether anything was dropped.
 */
function dropAsideClauses(pieces: Piece[]): boolean {
  const first = pieces[0];
  if (!first || first.locked || !/[\u3040-\u9fff]/.test(first.text)) return false;
  // Only the first piece is read; a clause that runs on into a literal is not an aside.
  const whole = pieces.length === 1;
  const body = whole ? first.text.replace(/[。！？.!?…]+\s*$/u, '') : first.text;
  const clauses = body.match(WIDE_CLAUSE) ?? [];
  if (clauses.join('') !== body) return false; // a stop or a question mark inside: not one run of clauses
  const last = clauses.length - 1;
  // A transcript line's speaker ("王磊：大家好，…") stays with the line when its greeting goes.
  const speaker = SPEAKER_LABEL.exec(clauses[0] ?? '')?.[0] ?? '';
  const kept = clauses.filter((clause, i) => (!whole && i === last && !/[，、]$/u.test(clause)) || !isAsideClause((i === 0 ? clause.slice(speaker.length) : clause).replace(/[，、]$/u, '').trim()));
  if (kept.length === clauses.length || (whole && kept.length === 0)) return false;
  const rest = (kept[0] === clauses[0] ? '' : speaker) + kept.join('');
  pieces[0] = { ...first, text: (whole ? rest.replace(/[，、]$/u, '') : rest) + first.text.slice(body.length) };
  return true;
}

/**
 * Drops the hedge or restatement marker that opens a sentence of German, Spanish, French or Portuguese
 * (OPENING_HEDGE), keeping the capital: "Sei lá, talvez um emoji …" → "Talvez um emoji …".
 */
function dropOpeningHedge(pieces: Piece[]): boolean {
  const first = pieces[0];
  if (!first || first.locked) return false;
  const hedge = OPENING_HEDGE.exec(first.text) ?? GREETING_OPENING.exec(first.text);
  if (!hedge || FOREIGN_GUARD.test(hedge[0])) return false;
  const rest = first.text.slice(hedge[0].length);
  const capital = /^[^\p{L}]*\p{Lu}/u.test(first.text);
  pieces[0] = { ...first, text: first.text.slice(0, hedge[0].search(/\p{L}/u)) + (capital ? rest.charAt(0).toUpperCase() + rest.slice(1) : rest) };
  return true;
}

function isAsideClause(clause: string): boolean {
  if (clause.length > MAX_ASIDE_CLAUSE_CHARS || FOREIGN_GUARD.test(clause.replace(ASIDES, ' ')) || hasCode(clause)) return false;
  if (ASIDE_CLAUSE.test(clause)) return true;
  const rest = clause.replace(ASIDES, '');
  // Nothing but the aside, or a few characters around it ("不好意思又来麻烦了").
  return rest !== clause && rest.replace(/[\s\p{P}]/gu, '').length <= 4;
}

// "Sorry, …", "Thanks! …", and a thanks clause set off by a dash or semicolon: "Thanks for helping out
// with this — I'm an in-house counsel at …".
// So do a greeting by name set off by a dash ("Hey Copilot — a few notes …") and an apology for asking ("Hey,
// sorry in advance if this is a dumb question — I'm a product manager …").
const INTERJECTION = /^\W*(?:(?:sorry|thanks|thank you)\s*[,!.:;—–-]+|(?:many thanks|thanks (?:so much|a lot|a ton)|thank you so much)\s*[—–]|(?:thanks|thank you) for [^—–;:,.!?]{1,60}?(?:\s[—–]|\s*;)|(?:(?:hey|hi|hello)[,!]?\s+)?sorry (?:in advance )?(?:if|for) [^—–;:.!?]{1,60}?\s[—–]|(?:hey|hi|hello) (?:there|everyone|all|team|folks|agents?|claude|copilot|chatgpt|gemini|codex|cursor|assistant)(?:\s+[^\s\p{L}\p{N}]{1,3})?\s+[—–])\s*(?:(?:but|and|so)\s+)?/iu;
const MIN_CLAUSE_WORDS = 4;

/** "Sorry, the server crashes on large uploads." → "The server crashes on large uploads." */
function dropInterjection(pieces: Piece[]): boolean {
  const first = pieces[0];
  const said = first && !first.locked ? INTERJECTION.exec(first.text) : null;
  if (!said) return false;
  const rest = first!.text.slice(said[0].length);
  const words = (rest + pieces.slice(1).map((p) => p.text).join('')).split(/\s+/).filter(Boolean).length;
  if (words < MIN_CLAUSE_WORDS || !/^\p{L}/u.test(rest)) return false;
  pieces[0] = { ...first!, text: upperFirst(rest) };
  return true;
}

/**
 * What an apology is for, when that is the prompt itself: "Sorry, it's a bit rough.", "Sorry, that sounds
 * strict, but it's important for us." A short remark on "it" or "this" with nothing specific in it.
 */
function isAboutThePrompt(rest: string): boolean {
  return SELF_REMARK.test(rest) && rest.split(/\s+/).filter(Boolean).length <= MAX_SELF_REMARK_WORDS && !/\d/.test(rest) && !hasCode(rest);
}
const SELF_REMARK = /^\W*(?:it|this|that)(?:['’]s|\s+(?:is|was|sounds|looks|got|might be|may be))\s/i;
const MAX_SELF_REMARK_WORDS = 9;

// A question put to the model ("Could you review this, thanks so much!"): the thanks goes with it, not it
// with the thanks. "Could you let me know if anything is unclear?" asks about the prompt.
const ASKS_MODEL = /^[^\p{L}]*(?:(?:so|ok|okay|hi|hello|hey)[,!.]?\s+)?(?:can|could|would|will) you (?:please |kindly )?(?!let\b|bear\b|forgive\b)\p{L}/iu;

/** An aside to the reader ("I hope that's clear enough", "Let me know if …") that instructs nothing. */
function isAside(text: string): boolean {
  if (!ASIDE.test(text) || ASIDE_GUARD.test(text.replace(ENOUGH_SAID, '')) || ASKS_MODEL.test(text)) return false;
  if (INTRODUCES.test(text)) return false;
  // "Sorry, the server crashes on large uploads.": the apology opens a sentence that says something.
  const said = INTERJECTION.exec(text);
  if (said) {
    const rest = text.slice(said[0].length);
    const apologyFor = /^\W*sorry/i.test(said[0]) && isAboutThePrompt(rest);
    if (!apologyFor && !ASIDE.test(rest) && rest.split(/\s+/).filter(Boolean).length >= MIN_CLAUSE_WORDS) return false;
  }
  return !isInstruction(text) || /^\W*(?:please )?(?:let (?:me|us) know (?:if|whether)|thanks|thank you|sorry|you(?:'re|’re| are) (?:a |an |the )?(?:star|lifesaver|life saver|legend|gem|best|awesome)(?:,? (?:honestly|seriously|really|as always))?\W*$|(?:(?:do )?keep|bear) (?:that|this|these|those|it) in mind(?:,? please)?\W*$)/i.test(text);
}
