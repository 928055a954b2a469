/**
 * What a user reads before accepting: what the lossy passes removed (from the core's report), whether
 * a rule went with it, and which engine ran. Pure; the core's rule test is passed in.
 */
import { formatCount } from './format';

/** The core's `Removal` (src/core/result.ts), repeated so this module loads without the core. */
export interface RemovedUnit {
  readonly pass: string;
  readonly kind: 'sentence' | 'example' | 'block' | 'clause' | 'words';
  readonly text: string;
}

export interface Review {
  /** `dropped 4 sentences and 1 example; pruned 12 words`, or undefined when nothing was reported. */
  readonly summary: string | undefined;
  /** Removed units that state a rule (a negation, limit or condition). */
  readonly rulesDropped: readonly string[];
  /** `local engine`, `remote engine at http://127.0.0.1:8787 (API B)`. */
  readonly engine: string;
}

const plural = (n: number, one: string, many = `${one}s`): string => `${formatCount(n)} ${n === 1 ? one : many}`;

function list(parts: readonly string[]): string {
  if (parts.length <= 1) return parts.join('');
  return `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}`;
}

/** One short line: whole units dropped, clauses cut, words pruned. Undefined for an empty report. */
export function summarizeRemovals(removed: readonly RemovedUnit[]): string | undefined {
  const count = (kind: RemovedUnit['kind']): number => removed.filter((r) => r.kind === kind).length;
  const dropped = [
    count('sentence') > 0 ? plural(count('sentence'), 'sentence') : '',
    count('example') > 0 ? plural(count('example'), 'example') : '',
    count('block') > 0 ? plural(count('block'), 'block') : '',
  ].filter(Boolean);
  const words = removed.filter((r) => r.kind === 'words').reduce((sum, r) => sum + r.text.split(/\s+/).filter(Boolean).length, 0);
  const parts = [
    dropped.length > 0 ? `dropped ${list(dropped)}` : '',
    count('clause') > 0 ? `cut ${plural(count('clause'), 'clause')}` : '',
    words > 0 ? `pruned ${plural(words, 'word')}` : '',
  ].filter(Boolean);
  return parts.length > 0 ? parts.join('; ') : undefined;
}

/** Whole units (not loose words) whose text states a rule, by the core's test. */
export function droppedRules(removed: readonly RemovedUnit[], statesRule: (text: string) => boolean): string[] {
  return removed.filter((r) => r.kind !== 'words' && statesRule(r.text)).map((r) => r.text);
}

export function engineLabel(engine: 'local' | 'remote', remote?: { readonly origin: string; readonly apiVariant: string }): string {
  return engine === 'local' || !remote ? 'local engine' : `remote engine at ${remote.origin} (API ${remote.apiVariant})`;
}

/**
 * The notification shown beside the diff, so nothing important hides at the end of a cut tab title:
 * `Prompt: 1,234 → 567 tokens (−54.1%), local engine: dropped 4 sentences. Drops 1 rule: "Never …".`
 */
export function formatReviewMessage(title: string, review: Review): string {
  // The core reports every unit it removed, asides such as "Thanks so much!" included; rewording is not listed.
  const what = review.summary ?? (review.engine.startsWith('local') ? 'rewording only (filler words, shorter phrases), nothing dropped' : 'the server does not report what it removed');
  const rules = review.rulesDropped.length === 0 ? '' : ` Drops ${plural(review.rulesDropped.length, 'rule')}: \u201c${truncate((review.rulesDropped[0] ?? '').replace(/[.!?]$/, ''), 80)}\u201d${review.rulesDropped.length > 1 ? ' and more' : ''}.`;
  return `${title}, ${review.engine}: ${what}.${rules}`;
}

function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1).trimEnd()}\u2026`;
}

/** The "What was removed" document: every removed unit, grouped, as Markdown. */
export function formatRemovedDocument(removed: readonly RemovedUnit[], review: Review): string {
  const lines = [`# Removed by Prompt Optimizer (${review.engine})`, ''];
  if (removed.length === 0) lines.push(review.engine.startsWith('local') ? 'Nothing was dropped; the text was only reworded (filler words, wordy phrases).' : 'The remote engine does not report what it removed.');
  else lines.push('What was dropped: asides to the reader at any budget, the rest to meet it. Rewording (filler words, wordy phrases) is not listed; the diff shows it.', '');
  const groups: [RemovedUnit['kind'], string][] = [['sentence', 'Sentences'], ['example', 'Examples'], ['block', 'Blocks'], ['clause', 'Clauses'], ['words', 'Words']];
  const rules = new Set(review.rulesDropped);
  for (const [kind, heading] of groups) {
    const items = removed.filter((r) => r.kind === kind);
    if (items.length === 0) continue;
    lines.push(`## ${heading} (${items.length})`, '');
    for (const item of items) lines.push(`- ${rules.has(item.text) ? '**Rule:** ' : ''}${item.text.replace(/\s*\n\s*/g, ' ')} _(${item.pass})_`);
    lines.push('');
  }
  return `${lines.join('\n').trimEnd()}\n`;
}
