/**
 * Few-shot examples written with labels (Q:/A:, Input:/Output:, User:/Assistant:, "Example 1:"):
 * each example is one unit, kept or dropped whole. A question-side label left without its answer at
 * the end of the prompt is the prompt's final input instead.
 */

// A label opens its line: "Q:", "**Input:**", "- User:", "输入：".
const LABEL = (names: string) => new RegExp(`^(?:[-*+>]\\s+)?(?:\\*\\*|__)?(?:${names})(?:\\*\\*|__)?\\s*[:：]`, 'i');
const QUESTION_SIDE = LABEL(
  'q|question|input|user|human|customer|client|text|review|sentence|message|ticket|query|prompt|email|comment|tweet|problem|' +
    'frage|eingabe|pregunta|entrada|question|entrée|pergunta|问题|问|输入|用户|質問|入力|ユーザー',
);
const ANSWER_SIDE = LABEL(
  'a|answer|output|assistant|ai|agent|bot|model|label|sentiment|category|classification|response|intent|result|reply|' +
    'solution|summary|translation|tags?|antwort|ausgabe|respuesta|salida|réponse|sortie|resposta|saída|答案|答|回答|输出|助手|出力|回答',
);
// "Example 1:", "Example:", "Beispiel 2:", "例1：" — a self-contained example header.
const EXAMPLE_HEADER = /^(?:[-*+]\s+)?(?:\*\*|__)?(?:example|sample|beispiel|ejemplo|exemple|exemplo|例|示例)\s*\d*(?:\*\*|__)?\s*[:：.]?(?:\*\*|__)?(?:\s|$)/i;

export type LineItem =
  | { readonly kind: 'line'; readonly start: number; readonly end: number; readonly text: string; readonly newParagraph: boolean }
  /** A code, data or table block: may sit inside an example. */
  | { readonly kind: 'block' }
  /** A heading or tag: no example runs across it. */
  | { readonly kind: 'break' };

export interface Span {
  start: number;
  end: number;
}

interface Group extends Span {
  answered: boolean;
  header: boolean;
  /** A paragraph break was seen inside the group. */
  closedParagraph: boolean;
  paragraphs: number;
}

/** An input waiting for its answer spans a few paragraphs at most (the user's text, a document). */
const MAX_INPUT_PARAGRAPHS = 3;

/** Example spans, in order, and the final input's span if the prompt ends with an unanswered input. */
export function findExamples(items: readonly LineItem[]): { examples: Span[]; finalInput: Span | null } {
  const examples: Span[] = [];
  let group: Group | null = null;
  const close = () => {
    if (group && (group.answered || group.header)) examples.push({ start: group.start, end: group.end });
    group = null;
  };
  for (const item of items) {
    if (item.kind === 'break') {
      if (group && !group.answered && !group.header) group = null;
      close();
      continue;
    }
    if (item.kind === 'block') continue;
    const { start, end, text, newParagraph } = item;
    const header = EXAMPLE_HEADER.test(text);
    const question = !header && QUESTION_SIDE.test(text);
    const answer = !header && !question && ANSWER_SIDE.test(text);
    if (header || (question && group?.answered)) close();
    if (header || (question && !group)) {
      group = { start, end, answered: false, header, closedParagraph: false, paragraphs: 1 };
      continue;
    }
    if (!group) continue;
    const g: Group = group;
    if (answer) {
      g.answered = true;
      g.end = end;
      g.closedParagraph = false;
    } else if (question) {
      g.end = end;
    } else if (newParagraph && (g.answered || (g.header && g.closedParagraph))) {
      close(); // a new, unlabelled paragraph after the answer: the example is over
    } else if (newParagraph && ++g.paragraphs > MAX_INPUT_PARAGRAPHS) {
      group = null; // a label in passing ("Input: the user's file"), not an example or the final input
    } else {
      if (newParagraph) g.closedParagraph = true;
      g.end = end;
    }
  }
  const last = group as Group | null;
  if (last && !last.answered && !last.header) return { examples, finalInput: { start: last.start, end: last.end } };
  close();
  return { examples, finalInput: null };
}
