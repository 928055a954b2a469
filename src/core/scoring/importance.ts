import { isListItem, sentenceText, sentenceWords, type Doc, type Sentence } from '../doc';
import { LABEL_LINE, LEAD_IN_LEVEL } from '../passes/structure';
import { terms, termsOf, STOPWORDS } from '../text/words';
import { answerTypeMatch, answerTypes, type AnswerType } from './answer-type';
import { bm25Terms } from './bm25';
import { decides } from './decisions';
import { wordInformation } from './information';
import { metaPenalty, ruleValue, saidValue, specificity } from './rules';
import { turnLabelLength } from '../passes/segment';

/** A prose sentence with where it stands, for ranking. */
export interface RankedSentence {
  readonly sentence: Sentence;
  /** First sentence of its block. */
  readonly opensBlock: boolean;
  /** First sentence of a paragraph of several: its topic sentence. */
  readonly leadsParagraph: boolean;
  /** In a list item: a rule or an item of a set. */
  readonly inList: boolean;
  /** Quoted material (a document, a draft): never talk about the prompt. */
  readonly material: boolean;
  /** Said in a meeting or a call (see segment's markTranscript). */
  readonly said: boolean;
  /** Position in the document, 0 = first sentence. */
  readonly order: number;
  /** Importance with nothing selected yet. */
  score: number;
  /** The part of `score` that comes from each task term, so selection can discount covered terms. */
  readonly termScores: Map<string, number>;
  /** What scoring one clause of the sentence needs (task-guided ranking only). */
  parts?: { relevance: number; neighbour: number; rest: number; types: readonly AnswerType[] };
}

const RELEVANCE_NEIGHBOUR = 0.35;
/** What a sentence's neighbours' relevance lends it (the answer may sit in "It opened in 1990." after the named one). */
const beside = (relevance: readonly number[], i: number): number => RELEVANCE_NEIGHBOUR * Math.max(relevance[i - 1] ?? 0, relevance[i + 1] ?? 0);
/** What the prompt asks for ranks with its rules, whatever words it uses. */
const TASK_STATEMENT = 0.3;
const ANSWER_TYPE = 0.3;
const WEIGHT_RELEVANCE = 0.75;
/** An instruction to the model, with or without a task. */
const INSTRUCTION = 0.175;
/** Without a task, a paragraph's topic sentence says what the rest of it is about. */
const PARAGRAPH_LEAD = 0.2;

/**
 * Importance of every kept prose sentence in [0, ~1.5]: relevance to the task (BM25, spread a little
 * to neighbours, whose pronouns often point at the answer), informativeness (self-information of
 * content words, protected literals such as numbers and names) and structure (instructions, openings,
 * questions, the last instruction).
 */
export function rankSentences(doc: Doc): RankedSentence[] {
  const ranked: RankedSentence[] = [];
  // The instructions of a section titled as the task ("## Your task", "## Aufgabe") state it.
  const inTask = new Set<Sentence>();
  let taskSection = false;
  for (const block of doc.blocks) {
    if (block.kind === 'heading' && (block.level ?? 1) < LEAD_IN_LEVEL) taskSection = TASK_TITLE.test(block.body.trim());
    if (block.removed || block.kind !== 'prose') continue;
    if (taskSection && !block.verbatim) for (const s of block.sentences) inTask.add(s);
    // "Task:" on a line of its own over what the prompt asks, as a "## Task" heading is.
    const label = block.sentences[0] && block.sentences.length > 1 ? sentenceText(block.sentences[0]) : '';
    if (label && !block.verbatim && LABEL_LINE.test(label) && TASK_TITLE.test(label)) for (const s of block.sentences.slice(1)) inTask.add(s);
    const listed = isListItem(block);
    const said = block.sentences.some((s) => s.speaker);
    block.sentences.forEach((sentence, i) => {
      if (sentence.removed) return;
      const leadsParagraph = i === 0 && !listed && block.sentences.length > 1;
      ranked.push({ sentence, opensBlock: i === 0, leadsParagraph, inList: listed, material: !!block.verbatim, said, order: ranked.length, score: 0, termScores: new Map() });
    });
  }
  if (ranked.length === 0) return ranked;
  const texts = ranked.map((r) => sentenceText(r.sentence));
  const query = terms(doc.task, doc.english);
  // Without a word-frequency table (every language but English), a word tells more the fewer sentences
  // of this text hold it (what tf-idf reads); with a task, relevance does that work.
  const rarity = !doc.english && query.length === 0 ? meanRarity(ranked.map((r) => termsOf(sentenceWords(r.sentence), false))) : null;
  const information = normalize(texts.map((text, i) => informativeness(text, ranked[i]!.sentence, doc.english, rarity?.[i])));
  const types = doc.english ? answerTypes(doc.task) : [];
  const contributions = query.length ? bm25Terms(ranked.map((r) => termsOf(sentenceWords(r.sentence), doc.english)), query) : [];
  const own = contributions.map((c) => [...c.values()].reduce((a, b) => a + b, 0));
  // Relevance is measured against the best sentence selection can choose: a pinned question that restates
  // the task ("Employee question: … mileage?") would make the fact that answers it look half relevant.
  let maxOwn = 0;
  own.forEach((v, i) => { if (v > maxOwn && !ranked[i]!.sentence.pinned) maxOwn = v; });
  if (maxOwn === 0) for (const v of own) if (v > maxOwn) maxOwn = v;
  const relevance = query.length && maxOwn > 0 ? own.map((v) => Math.min(1, v / maxOwn)) : null;
  // Without a task, the question the prompt closes on says which of its documents matter: "… already talked
  // to their bank about it. What should the agent do?" over four retrieved documents.
  const asked = relevance ? null : askedOfMaterial(ranked, doc.english);
  // An imperative inside quoted material (a manual to translate, a document's "Keep the receipt") is
  // the material's, not an instruction to the model.
  const instructs = (r: RankedSentence) => !!r.sentence.instruction && !r.material;
  let lastInstruction = -1;
  ranked.forEach((r, i) => { if (instructs(r)) lastInstruction = i; });
  // Topic sentences lead the paragraphs of a text to read (an article, a report); a prompt, with its
  // rules, role or request, has its value in those.
  const narrative = ranked.every((r) => !instructs(r) && !r.inList && !r.sentence.pinned && !r.sentence.request);
  // The prompt's task: its first instruction other than the role ("Read the lease and list …").
  const taskStatement = ranked.findIndex((r) => instructs(r) && !r.sentence.pinned && !r.inList);
  const subject = narrative ? -1 : subjectStatement(ranked, texts);
  ranked.forEach((r, i) => {
    // What the prompt tells the model to do is worth as much whatever the task.
    const instruction = instructs(r) ? INSTRUCTION : 0;
    // What the prompt asks and what it is about.
    const decided = r.said && decides(texts[i]!) ? DECISION : 0;
    const stated = (i === taskStatement || (inTask.has(r.sentence) && instructs(r)) ? TASK_STATEMENT : 0) + (i === subject ? SUBJECT_STATEMENT : 0) + decided;
    const structure =
      (i === 0 ? 0.3 : 0) + (r.opensBlock ? 0.1 : 0) +
      (i === lastInstruction ? 0.2 : 0) + (/\?\s*$/.test(texts[i]!) ? 0.1 : 0) - (0.1 * i) / ranked.length;
    if (relevance) {
      const neighbour = beside(relevance, i);
      const typed = 1 + ANSWER_TYPE * answerTypeMatch(texts[i]!, types);
      for (const [term, value] of contributions[i] ?? []) r.termScores.set(term, (WEIGHT_RELEVANCE * typed * value) / maxOwn);
      // A rule of the prompt counts whatever the task, and so does a fact it states (a date, an amount);
      // a text to read (an article to ask about) goes by relevance alone.
      const rule = (instructs(r) || r.inList) && !r.material ? ownValue(r, texts[i]!, false) : narrative ? 0 : ownValue(r, texts[i]!, true);
      const rest = 0.15 * information[i]! + 0.1 * structure + instruction + rule - metaPenalty(texts[i]!, r.sentence, r.material) + stated;
      r.score = WEIGHT_RELEVANCE * (relevance[i]! + neighbour) * typed + rest;
      r.parts = { relevance: relevance[i]!, neighbour, rest, types };
    } else {
      const lead = narrative && r.leadsParagraph ? PARAGRAPH_LEAD : 0;
      // A text to read has no rules: its "not" or "only" says nothing of a sentence's value.
      const rule = ownValue(r, texts[i]!, narrative || r.material);
      const penalty = metaPenalty(texts[i]!, r.sentence, r.material);
      if (asked && r.material) {
        // The question the prompt closes on is, for its documents, what a task is: they rank as a task ranks them.
        r.score = WEIGHT_RELEVANCE * (asked[i]! + beside(asked, i)) + 0.15 * information[i]! + 0.1 * structure + rule - penalty + decided;
      } else r.score = 0.4 * information[i]! + 0.35 * structure + instruction + lead + rule - penalty + stated;
    }
    r.sentence.score = r.score;
  });
  return ranked;
}

/** ruleValue, or specificity alone for a text to read, of what the sentence says (a turn: without its speaker). */
function ownValue(r: RankedSentence, text: string, material: boolean): number {
  const label = r.sentence.speaker ? turnLabelLength(text) : 0;
  if (label > 0) return saidValue(text, r.sentence, label, material);
  return material ? specificity(text, r.sentence) : ruleValue(text, r.sentence);
}

/** Each material sentence's relevance (0–1) to the prompt's pinned closing question, or null without both. */
function askedOfMaterial(ranked: readonly RankedSentence[], english: boolean): number[] | null {
  let lastMaterial = -1;
  ranked.forEach((r, i) => { if (r.material) lastMaterial = i; });
  if (lastMaterial < 0) return null;
  // The pinned input after the documents, when it asks: "Question: A customer on the Annual plan … What should …?"
  const closing = ranked.slice(lastMaterial + 1).filter((r) => r.sentence.pinned);
  // The question may close on thanks, inside quotation marks: '"… right away? Thanks!"'.
  if (!closing.some((r) => /[?？]/.test(sentenceText(r.sentence)))) return null;
  const query = terms(closing.map((r) => sentenceText(r.sentence)).join(' '), english);
  if (query.length === 0) return null;
  const scores = bm25Terms(ranked.map((r) => (r.material ? termsOf(sentenceWords(r.sentence), english) : [])), query).map((c) => [...c.values()].reduce((a, b) => a + b, 0));
  const max = Math.max(...scores);
  return max > 0 ? scores.map((v) => v / max) : null;
}

// "## Your task", "## Task", "## Goal", "## Aufgabe", "## Tarea", "## Tâche", "## 任务".
const TASK_TITLE = /^(?:#{1,6}\s*)?(?:\*\*)?(?:your\s+|the\s+)?(?:task|job|goal|objective|assignment|aufgabe|deine aufgabe|ihre aufgabe|tarea|tu tarea|tâche|votre tâche|ta tâche|tarefa|sua tarefa|任务|你的任务|タスク)(?![\p{L}])/iu;

/** A decision or a commitment in a transcript: what its minutes keep. */
const DECISION = 0.3;

/** What the prompt is about, named ("This is the monorepo for Harborlight, …"), ranks with its task. */
const SUBJECT_STATEMENT = 0.3;
/** How far into the prompt its subject may be named: its opening sentences. */
const SUBJECT_WINDOW = 4;
// A name: a capitalised word after the sentence's first, or one in quotation marks ("「さくらみなとバンク」").
const NAMED = /[\s(]\p{Lu}\p{Ll}|「[^」]+」|„[^“]+“|«[^»]+»/u;

/**
 * The prompt's subject statement: the first of its opening sentences, other than the role and talk
 * about the prompt, that names something (the product, the project, the company).
 */
function subjectStatement(ranked: readonly RankedSentence[], texts: readonly string[]): number {
  let seen = 0;
  for (let i = 0; i < ranked.length && seen < SUBJECT_WINDOW; i++) {
    const r = ranked[i]!;
    if (r.sentence.pinned || metaPenalty(texts[i]!, r.sentence) > 0) continue;
    seen++;
    if (!r.inList && !r.material && NAMED.test(texts[i]!.slice(1))) return i;
  }
  return -1;
}

/**
 * Importance of one clause of a ranked sentence: the relevance of the task terms it holds, its own
 * answer-type match, and the sentence's other parts. The rest of the sentence counts as a neighbour.
 */
export function scoreClause(r: RankedSentence, text: string, terms: ReadonlySet<string>): { score: number; termScores: Map<string, number> } {
  if (!r.parts) return { score: r.score, termScores: r.termScores };
  let all = 0;
  let own = 0;
  const termScores = new Map<string, number>();
  for (const [term, value] of r.termScores) {
    all += value;
    if (terms.has(term)) {
      own += value;
      termScores.set(term, value);
    }
  }
  const relevance = all > 0 ? (r.parts.relevance * own) / all : 0;
  const neighbour = Math.max(r.parts.neighbour, RELEVANCE_NEIGHBOUR * (r.parts.relevance - relevance));
  const typed = 1 + ANSWER_TYPE * answerTypeMatch(text, r.parts.types);
  return { score: WEIGHT_RELEVANCE * (relevance + neighbour) * typed + r.parts.rest, termScores };
}

const STOPWORD = -1;
// Every word of every sentence is looked up on each ranking: one small map instead of the stopword set
// and the 50,000-word frequency table.
const informationMemo = new Map<string, number>();
const MAX_MEMO = 100_000;

/** wordInformation of an English word, or STOPWORD. */
function englishInformation(word: string): number {
  let info = informationMemo.get(word);
  if (info === undefined) {
    info = STOPWORDS.has(word) ? STOPWORD : wordInformation(word);
    if (informationMemo.size >= MAX_MEMO) informationMemo.clear();
    informationMemo.set(word, info);
  }
  return info;
}

/** For each list of terms, their mean inverse sentence frequency among all lists, in [0, 1]. */
function meanRarity(termLists: readonly string[][]): number[] {
  const frequency = new Map<string, number>();
  for (const list of termLists) for (const term of new Set(list)) frequency.set(term, (frequency.get(term) ?? 0) + 1);
  const scale = Math.log(termLists.length + 1);
  return termLists.map((list) => {
    let sum = 0;
    for (const term of list) sum += Math.log((termLists.length + 1) / frequency.get(term)!) / scale;
    return list.length ? sum / list.length : 0;
  });
}

/** `rarity`: the sentence's mean word rarity in its text, used instead of word length where there is one. */
function informativeness(text: string, sentence: Sentence, english: boolean, rarity?: number): number {
  let density = rarity ?? 0;
  if (rarity === undefined) {
    let info = 0;
    let count = 0;
    for (const w of sentenceWords(sentence)) {
      const wordInfo = english ? englishInformation(w) : Math.min(1, w.length / 10);
      if (wordInfo === STOPWORD) continue;
      info += wordInfo;
      count++;
    }
    density = count ? info / count : 0;
  }
  const literals = sentence.pieces.filter((p) => p.locked).length;
  const names = (text.slice(1).match(/\s\p{Lu}\p{Ll}/gu) ?? []).length; // capitalised words after the first
  return density + 0.08 * Math.min(literals + names, 6);
}

function normalize(values: number[]): number[] {
  let max = 0;
  for (const v of values) if (v > max) max = v;
  return max > 0 ? values.map((v) => v / max) : values.map(() => 0);
}
