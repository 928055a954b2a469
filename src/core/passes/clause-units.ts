import { isFixedSentence, sentenceText, sentenceWords, type Sentence } from '../doc';
import type { Tokenizer } from '../tokenizer';
import { scoreClause, type RankedSentence } from '../scoring/importance';
import { hasConstraint, ruleValue } from '../scoring/rules';
import { isInstruction } from '../scoring/structure';
import { asideStarts, clauseText, splitClauses, twoClauses, type Clause } from '../text/clauses';
import { STOPWORDS, terms, words } from '../text/words';
import type { Unit } from './units';

/**
 * The parts of a sentence selection may keep apart: its clauses (where a task asks about one of them),
 * a rule's trailing reason or aside (", because its build is fragile"), and the remarks that close a list
 * item after its rule. A part that instructs, constrains, names or quotes something is never an aside.
 */

// Openers of a rule's other branch, of a clause or of a sentence: "otherwise", "in that case", "Nesse caso".
export const OTHER_BRANCH =
  'otherwise|in that case|in which case|if so|if not|instead|sonst|andernfalls|in diesem fall|in dem fall|sinon|dans ce cas|si no|en ese caso|en este caso|en tal caso|senão|nesse caso|neste caso|em tal caso';

/**
 * A long sentence of task-guided prose as one unit per clause, so that its relevant clause can be kept
 * without the rest.
 */
export function clauseUnits(r: RankedSentence, whole: Unit, clausesOf: Map<Sentence, Clause[]>, tokenizer: Tokenizer): Unit[] {
  const clauses = splitClauses(r.sentence.pieces);
  if (clauses.length < 2) return [whole];
  clausesOf.set(r.sentence, clauses);
  const units: Unit[] = [];
  let chain = '';
  clauses.forEach((clause, c) => {
    // A dependent clause is kept with the clauses before it, and reads with their words (its subject).
    const text = clauseText(r.sentence.pieces, clauses, c);
    chain = (clause.dependent ? chain : '') + text;
    const { score, termScores } = scoreClause(r, chain, new Set(terms(chain, true)));
    // Clause costs are counted, not estimated: a low estimate would make the tightening loop drop more.
    const unit: Unit = { cost: tokenizer.count(text) + 1 / clauses.length, score, order: r.order, termScores, sentences: [r.sentence], parent: whole.parent, clause: c };
    if (clause.dependent) unit.head = units[c - 1];
    units.push(unit);
  });
  return units;
}

/**
 * The sentences that close a list item after its rule and only remark on it ("This caused a lot of
 * complaints last time, so be explicit."): none instructs, constrains, names or quotes anything, and
 * the item before them is a rule.
 */
export function closingRemarks(kept: readonly Sentence[], english: boolean): Sentence[] {
  let n = kept.length;
  while (n > 1 && !isFixedSentence(kept[n - 1]!) && !kept[n - 1]!.instruction && remarks(sentenceText(kept[n - 1]!), english)) n--;
  const rule = kept.slice(0, n);
  return n < kept.length && rule.some((s) => s.instruction || hasConstraint(sentenceText(s), sentenceWords(s))) ? kept.slice(n) : [];
}

/**
 * A remark says something about something ("This caused …", "Les réglages sont gérés par …", "支払いは…"):
 * in a Latin script it opens with its subject, where an order opens with its verb ("Eliminate until one
 * remains.", which no verb list holds).
 */
const remarks = (text: string, english: boolean): boolean =>
  !EXCEPTION.test(text) && saysAside(text, english) && !OUGHT.test(text) && (!/^[^\p{L}]*\p{Script=Latin}/u.test(text) || SUBJECT_OPENER.test(text));
// "It should sound like me, just better organised.": what something should be is a requirement, not a remark.
const OUGHT = /(?<![\p{L}])(?:should|ought to|has to|have to|needs to|need to|sollte|sollten|soll|sollen|devrait|devraient|faut|debería|deberían|hay que|deveria|deveriam|tem que|precisa)(?![\p{L}])/iu;
const SUBJECT_OPENER =
  /^[^\p{L}]*(?:this|that|these|those|it|its|it's|they|their|we|our|i|i'm|i've|you|your|there|the|a|an|some|most|all|each|every|no|one|dies|das|der|die|es|wir|ich|man|unser|unsere|ce|cet|cette|ces|cela|ça|c'est|c’est|il|elle|ils|on|nous|je|le|la|les|un|une|notre|nos|esto|eso|este|esta|estos|lo|el|los|las|una|nosotros|yo|nuestro|nuestra|isso|isto|esse|essa|o|os|as|uma|a gente|eu|nosso|nossa)(?![\p{L}])|^[^\p{L}]*\p{Lu}\p{Ll}+\s+(?:is|are|was|were|has|have|had|ist|sind|war|est|sont|es|son|é|são)(?![\p{L}])/iu;

// The exception to the rule before: "Except in test targets, where it's fine.", "ただし、テストコードの中では許可します。".
// The rule without it says more than it means, and it says nothing without the rule.
export const EXCEPTION = /^[^\p{L}]*(?:except|exceptions?|unless|with the exception of|ausgenommen|außer|ausser|ausnahmen?|excepto|salvo|sauf|à l'exception|à l’exception|a excepción|exceto|exceção|exceções|com exceção)(?![\p{L}])|^[^\p{L}]*(?:ただし|但し|例外として|例外は|除非|除了|但(?!是))/iu;

/** What a reason or aside is worth beside the rule it follows: kept when there is room, dropped first. */
export const ASIDE_SHARE = 0.25;
// Words that lead into a clause without changing what it says: "— actually run them" instructs.
const FILLER_OPENER = /^(?:[\s,;—–-]|(?:actually|just|simply|really|please|and|but|so|then|also)(?![\p{L}]))+/iu;

/**
 * A sentence of a prompt's own prose as what it says and its trailing aside: the reason after a rule
 * (", because its build is fragile"), a remark after a dash or semicolon ("— they've caused circular
 * imports before", "; it's slow and CI runs it anyway"). The aside is a unit kept only with the rest,
 * worth a share of it; one that instructs, constrains, names or quotes something is no aside.
 */
export function asideUnits(whole: Unit, clausesOf: Map<Sentence, Clause[]>, tokenizer: Tokenizer, english: boolean): Unit[] {
  const sentence = whole.sentences![0]!;
  const pieces = sentence.pieces;
  // Only a rule has a reason to lose: "It starts firing requests in a loop — I see hundreds of calls …"
  // describes, and its every part is the description.
  if (!sentence.instruction && !hasConstraint(sentenceText(sentence), sentenceWords(sentence))) return [whole];
  for (const start of asideStarts(pieces)) {
    if (pieces.slice(start.piece).some((piece) => piece.locked)) continue;
    const clauses = twoClauses(pieces, start);
    const aside = clauseText(pieces, clauses, 1);
    if (/[?:：]\s*$/.test(aside) || /\s[—–]\s|;\s/.test(aside.slice(1)) || !saysAside(aside, english)) continue;
    const main = clauseText(pieces, clauses, 0);
    // The rule is in what stays ("Don't commit secrets, because …"), not in its reason.
    if (!sentence.instruction && !hasConstraint(main)) continue;
    // "… and — when they're interested — get them to …": a dash that closes an aside opens none.
    if (/\s[—–]\s/.test(main)) continue;
    // "**If you discover a gap mid-implementation** — pause and ask …": what follows a condition is what to do.
    if (CONDITION.test(main) && !/[,;]/.test(main)) continue;
    // The other half of a pair set side by side is no remark: "You're not here to …; you're here to …",
    // "a Markdown file means update mode; a source path means create mode".
    if (/^\s*;/.test(aside) && parallel(main, aside)) continue;
    clausesOf.set(sentence, clauses);
    const asideCost = tokenizer.count(aside);
    const core: Unit = Object.assign(whole, { cost: Math.max(1, whole.cost - asideCost), clause: 0 });
    return [core, { cost: asideCost, score: ASIDE_SHARE * whole.score, order: whole.order, sentences: [sentence], parent: whole.parent, clause: 1, head: core }];
  }
  return [whole];
}

/** Whether two clauses open alike or share a content word among their first words (the pair's verb or noun). */
function parallel(main: string, other: string): boolean {
  const last = main.split(/[,;:]\s+|\s[—–]\s/).pop()!; // "…whenever possible: existing Markdown …"
  const x = words(last).slice(0, PARALLEL_WORDS);
  const y = words(other).slice(0, PARALLEL_WORDS);
  if (x[0] !== undefined && x[0] === y[0]) return true;
  return x.some((w) => w.length >= 3 && !STOPWORDS.has(w) && y.includes(w));
}
const PARALLEL_WORDS = 6;

// A clause that only states a condition: "If …", "When …", "Wenn …", "Si …", "Cuando …", "Se …".
const CONDITION = /^[^\p{L}]*(?:if|when|whenever|unless|once|in case|wenn|falls|sobald|si|quand|lorsque|cuando|se|quando|caso)(?![\p{L}])/iu;

// What turns a clause into the rule's other branch: "— in that case tell them …", "— otherwise …".
export const CONSEQUENCE = new RegExp(`^(?:${OTHER_BRANCH})(?![\\p{L}])`, 'iu');

/** Whether a trailing clause only remarks: no part of it instructs, constrains, names or quotes. */
function saysAside(aside: string, english: boolean): boolean {
  for (const part of aside.split(/[,;]\s+|\s[—–]\s/)) {
    const said = part.replace(FILLER_OPENER, '');
    if (!said) continue;
    if (CONSEQUENCE.test(said) || hasConstraint(said) || ruleValue(said, 0) > 0 || isInstruction(said, english)) return false;
  }
  return true;
}
