import { roughWordCount } from '../text/words';

/**
 * Few-shot examples written with labels (Q:/A:, Input:/Output:, User:/Assistant:, "Example 1:"):
 * each example is one unit, kept or dropped whole. A question-side label left without its answer at
 * the end of the prompt is the prompt's final input instead.
 */

// A label opens its line: "Q:", "**Input:**", "- User:", "输入：", "Question (from a developer on the v1 SDK):".
const LABEL = (names: string) => new RegExp(`^(?:[-*+>]\\s+)?(?:\\*\\*|__)?(?:${names})(?:\\s*\\([^()\\n]{1,160}\\))?(?:\\*\\*|__)?\\s*[:：]`, 'i');
const QUESTION_SIDE = LABEL(
  'q|question|input|user|human|customer|client|member|visitor|patient|student|employee|caller|buyer|guest|text|review|sentence|message|ticket|query|prompt|email|comment|tweet|problem|' +
    '(?:customer|user|client|final|your|the) (?:question|query|message|email|request)|' +
    'frage|eingabe|pregunta|entrada|question|entrée|pergunta|问题|问|输入|用户|質問|入力|ユーザー|' +
    // Whose question it is: "Frage der Mitarbeiterin", "Pregunta del cliente", "Question du client", "Pergunta do cliente".
    "(?:frage|nachricht|anfrage) (?:der|des|vom|von der) [^\\s:：()]+|kundenfrage|(?:pregunta|mensaje|consulta) (?:del|de la) [^\\s:：()]+|(?:question|message|demande) (?:du|de la|de l['’]) ?[^\\s:：()]+|(?:pergunta|mensagem) (?:do|da) [^\\s:：()]+|" +
    // The text to work on, in the other languages: "Texto: "NF-e nº 004512 …"" then "Saída: {…}".
    'texto|texte|satz|frase|phrase|nachricht|mensaje|mensagem|reseña|avaliação|avis|bewertung|kommentar|comentario|comentário|commentaire|文本|句子|テキスト|文章',
);
const ANSWER_SIDE = LABEL(
  // "R :" answers "Q :" / "P:" in French, Spanish and Portuguese FAQs.
  'a|r|answer|output|assistant|ai|agent|bot|model|label|sentiment|category|classification|response|intent|result|reply|' +
    'solution|summary|translation|tags?|antwort|ausgabe|respuesta|salida|réponse|sortie|resposta|saída|答案|答|回答|输出|助手|出力|回答',
);
// "Example 1:", "Example:", "Example 2.", "Beispiel 2:", "例1：" — a self-contained example header; not
// "Example upgrade from …" (prose about an example).
// "Example 2:", "Example.", "Second example." over an example's input.
const EXAMPLE_HEADER = /^(?:[-*+]\s+)?(?:\*\*|__)?(?:(?:first|second|third|fourth|fifth|another|one more|last)\s+)?(?:example|sample|beispiel|ejemplo|exemple|exemplo|例|示例)(?:\s*#?\d+\s*[:：.]?|\s*[:：.])(?:\*\*|__)?(?:\s|$)/i;

// The answer's label after the question on the same line, with an answer after it.
const INLINE_ANSWER = /(?:[.?!。？！)"”」]\s*|\s)(?:\*\*|__)?(?:a|answer|antwort|respuesta|réponse|resposta|答|回答|答案)(?:\*\*|__)?\s*[:：]\s*\S/iu;

/** A line that opens with a question-side or answer-side label, or an example header. */
export const isExampleLabel = (line: string): boolean => QUESTION_SIDE.test(line) || ANSWER_SIDE.test(line) || EXAMPLE_HEADER.test(line);

export type LineItem =
  | {
      readonly kind: 'line';
      readonly start: number;
      readonly end: number;
      readonly text: string;
      readonly newParagraph: boolean;
      /** A new Markdown block (a list item) on the line right under the one before, with no blank line between. */
      readonly underPrevious?: boolean;
    }
  /** A code, data or table block: may sit inside an example. */
  | { readonly kind: 'block'; readonly start: number; readonly end: number }
  /** A heading or tag: no example runs across it. */
  | { readonly kind: 'break' };

export interface Span {
  start: number;
  end: number;
}

interface Pending {
  span: Span;
  /** Paragraphs after it. */
  after: number;
}

interface Group extends Span {
  answered: boolean;
  header: boolean;
  /** Its last line ends with a colon: a block may follow as part of it. */
  endsWithColon?: boolean;
  /** A paragraph break was seen inside the group. */
  closedParagraph: boolean;
  paragraphs: number;
  /** Holds an answer label with nothing after it: the slot the model fills, so this is the final input. */
  slot?: boolean;
  lines: number;
  /** The question label stands alone on its line ("Input:"): its text follows in the next paragraphs. */
  bareLabel: boolean;
  /** Its text came on the lines right under the bare label ("Question du client :\n« … »"): a new paragraph ends it. */
  underLabel?: boolean;
}

/** A learned answer label's value, on average: a word or a few ("Queue: BILLING", "Tone: mixed, mostly calm"), not a turn of speech. */
const MAX_ANSWER_WORDS = 4;
/** What a learned question label holds, on average: an input to classify, not a field's value ("Title: Travel Expenses"). */
const MIN_INPUT_WORDS = 5;
/** An input waiting for its answer spans a few paragraphs at most (the user's text, a document). */
const MAX_INPUT_PARAGRAPHS = 3;
/** What may follow the final input: a closing line ("Thanks!"), not more of the prompt. */
const MAX_TRAILING_PARAGRAPHS = 1;

// An arrow from an input to its answer, and what follows it.
const ARROW = /(?:→|⇒|=>|->)([^→⇒]*)$/;

/**
 * One input and its answer on a labelled line: a single arrow, after a quoted input or a short one.
 * A rule that chains steps ("Execution: workspace tasks → scripts → raw CLI") or ends in a consequence
 * ("Regression risk: … If HIGH+ → flag blocking.") is no example.
 */
function isArrowExample(text: string): boolean {
  const arrows = text.match(/→|⇒|=>|->/g)?.length ?? 0;
  if (arrows !== 1) return false;
  const input = text.slice(0, text.search(/→|⇒|=>|->/));
  return /["“„«「『{]/.test(input) || input.split(/\s+/).filter(Boolean).length <= MAX_ARROW_INPUT_WORDS;
}
const MAX_ARROW_INPUT_WORDS = 10;

// Any short label opening a line ("Ticket:", "Queue:", "Review text:").
const ANY_LABEL = /^(?:[-*+>]\s+)?(?:\*\*|__)?(\p{L}[\p{L}\p{N}_-]*(?: [\p{L}\p{N}_-]+){0,2})(?:\*\*|__)?\s*[:：]/u;

/** What an example's last line answers: the text after its arrow or its label ("Queue: BILLING"). */
export function lastAnswer(example: string): string | undefined {
  const last = example.trimEnd().split('\n').pop()!.trim();
  const arrow = ARROW.exec(last);
  if (arrow) return arrow[1]!.trim();
  const label = ANY_LABEL.exec(last);
  return label ? last.slice(label[0].length).trim() : undefined;
}

/**
 * Labels this prompt uses in pairs: a label that is followed by the same other label at least twice
 * ("Ticket: …" then "Queue: …") asks, and the one after it answers — with an answer as short as a
 * label's value, after an input of a sentence or so. Turns of a transcript ("Ines: …" then "Me: …") say
 * as much on both sides, and a record's fields ("Title: Parental leave" then "Effective: 2024-01-01")
 * are short on both.
 */
function learnPairs(items: readonly LineItem[]): Map<string, 'q' | 'a'> {
  const sides = new Map<string, 'q' | 'a'>();
  const pairs = new Map<string, { count: number; asked: number; answered: number }>();
  let previous: { label: string; words: number } | null = null;
  for (const item of items) {
    if (item.kind === 'break') previous = null;
    if (item.kind !== 'line') continue;
    const match = ANY_LABEL.exec(item.text);
    if (!match) continue;
    const label = match[1]!.toLowerCase();
    const words = roughWordCount(item.text.slice(match[0].length));
    if (previous && previous.label !== label) {
      const key = `${previous.label}\u0000${label}`;
      const pair = pairs.get(key) ?? { count: 0, asked: 0, answered: 0 };
      pair.count++;
      pair.asked += previous.words;
      pair.answered += words;
      pairs.set(key, pair);
    }
    previous = { label, words };
  }
  const follows = (a: string, b: string) => pairs.has(`${a}\u0000${b}`);
  const labels = new Set([...pairs.keys()].flatMap((key) => key.split('\u0000')));
  for (const [key, { count, asked, answered }] of pairs) {
    if (count < 2 || answered / count > MAX_ANSWER_WORDS || asked / count < MIN_INPUT_WORDS) continue;
    const [question, answer] = key.split('\u0000') as [string, string];
    // Examples come round again: after the answer the next one asks ("Queue:" then "Ticket:"), maybe
    // through a third label ("Label:", "Reason:", then "Review:"); the fields of a record do not.
    if (!follows(answer, question) && ![...labels].some((x) => follows(answer, x) && follows(x, question))) continue;
    if (!sides.has(question)) sides.set(question, 'q');
    if (!sides.has(answer)) sides.set(answer, 'a');
  }
  return sides;
}

/** Example spans, in order, and the final input's span if the prompt ends with an unanswered input. */
export function findExamples(items: readonly LineItem[]): { examples: Span[]; finalInput: Span | null } {
  const learned = learnPairs(items);
  const sideOf = (text: string): 'q' | 'a' | null => {
    if (QUESTION_SIDE.test(text)) return 'q';
    if (ANSWER_SIDE.test(text)) return 'a';
    const label = ANY_LABEL.exec(text)?.[1]?.toLowerCase();
    return (label && learned.get(label)) || null;
  };
  const examples: Span[] = [];
  let group: Group | null = null;
  // An unanswered input that ended: the final input if nothing but a paragraph or so follows it.
  const state: { pending: Pending | null } = { pending: null };
  const close = () => {
    // "Example: "…"\nAnswer:" with its answer left empty is the input the model answers, not an example.
    if (group && (group.answered || (group.header && !group.slot))) examples.push({ start: group.start, end: group.end }), (state.pending = null);
    else if (group) state.pending = { span: { start: group.start, end: group.end }, after: 0 };
    group = null;
  };
  for (const item of items) {
    if (item.kind === 'break') {
      close();
      continue;
    }
    if (item.kind === 'block') {
      // An input's block, or the block an answer announces ("A: Here:"), belongs to the example.
      if (group && (!group.answered || group.endsWithColon)) (group.end = item.end), (group.endsWithColon = false);
      continue;
    }
    const { start, end, text } = item;
    // The lines right under an answer are more of it: "Assistant: - Sam | Fix the login bug", then "- UNASSIGNED | …".
    const newParagraph = item.newParagraph && !(item.underPrevious && group?.answered);
    // "発話：「…」→ 振込", "Review: … => positive": a whole example on one labelled line; with nothing
    // after the arrow, the slot the model fills, so the final input.
    const arrow = ANY_LABEL.test(text) && isArrowExample(text) ? ARROW.exec(text) : null;
    if (arrow) {
      const g = group as Group | null;
      // A bare header ("例：") over arrow lines stays a lead-in, not an example of its own.
      if (g && g.header && !g.answered && g.lines === 1) group = null;
      close();
      if (arrow[1]!.trim() === '') state.pending = { span: { start, end }, after: 0 };
      else examples.push({ start, end }), (state.pending = null);
      continue;
    }
    const header = EXAMPLE_HEADER.test(text);
    const side = header ? null : sideOf(text);
    const label = ANY_LABEL.exec(text);
    // "- Q: Do you ship abroad? A: Only to the EU.", "问：发票怎么开？答：…": a whole example on one line.
    if (side === 'q' && INLINE_ANSWER.test(text.slice(label?.[0].length ?? 0))) {
      close();
      examples.push({ start, end });
      state.pending = null;
      continue;
    }
    const bare = label !== null && text.slice(label[0].length).trim() === '';
    if (header || (side === 'q' && group?.answered)) close();
    if (header || (side === 'q' && !group)) {
      state.pending = null;
      // "Example 2: 3+3 → 6" is whole on its line; a bare "Example 1:" takes the paragraph after it.
      const inline = header && text.replace(EXAMPLE_HEADER, '').trim() !== '';
      group = { start, end, answered: false, header, closedParagraph: inline, paragraphs: 1, bareLabel: !header && bare, lines: 1 };
      continue;
    }
    if (!group) {
      if (newParagraph && state.pending) state.pending.after++;
      continue;
    }
    const g: Group = group;
    g.lines++;
    g.endsWithColon = /[:：]\s*$/.test(text);
    if (side === 'a' && !bare) {
      g.answered = true;
      g.end = end;
      g.closedParagraph = false;
    } else if (side !== null) {
      g.end = end; // more of the input, or the empty answer slot of the final input ("Queue:")
      if (side === 'a') g.slot = true;
    } else if (newParagraph && (g.answered || g.slot || (g.header && g.closedParagraph))) {
      close(); // a new, unlabelled paragraph after the answer: the example is over
      if (state.pending) state.pending.after++;
    } else if (newParagraph && (++g.paragraphs > MAX_INPUT_PARAGRAPHS || (!g.header && (!g.bareLabel || g.underLabel)))) {
      close(); // the input's own text is over
      if (state.pending) state.pending.after++;
    } else {
      if (newParagraph) g.closedParagraph = true;
      else if (g.bareLabel && g.paragraphs === 1) g.underLabel = true;
      g.end = end;
    }
  }
  close();
  const final = state.pending;
  return { examples, finalInput: final && final.after <= MAX_TRAILING_PARAGRAPHS ? final.span : null };
}
