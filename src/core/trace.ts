import { isStructural, sentenceText, type Doc } from './doc';
import type { Removal } from './result';

/** What the document holds at one moment: each block and sentence with its text ('' when removed). */
export type Snapshot = Map<object, string>;

export function snapshot(doc: Doc): Snapshot {
  const units: Snapshot = new Map();
  for (const block of doc.blocks) {
    if (block.kind !== 'prose') units.set(block, block.removed ? '' : block.body);
    else for (const sentence of block.sentences) units.set(sentence, block.removed || sentence.removed ? '' : sentenceText(sentence));
  }
  return units;
}

/**
 * What `pass` removed between two snapshots: whole units (sentences, examples, blocks) and, from
 * sentences that stayed, the words that went. Headings and tags follow their content and are not listed.
 */
export function removals(pass: string, doc: Doc, before: Snapshot, after: Snapshot): Removal[] {
  const found: Removal[] = [];
  for (const block of doc.blocks) {
    if (block.kind !== 'prose') {
      if (before.get(block) && !after.get(block) && !isStructural(block)) found.push({ pass, kind: block.kind === 'example' ? 'example' : 'block', text: block.body });
      continue;
    }
    for (const sentence of block.sentences) {
      const was = before.get(sentence) ?? '';
      const now = after.get(sentence) ?? '';
      if (!was || was === now) continue;
      if (!now) found.push({ pass, kind: 'sentence', text: was });
      else {
        const lost = lostWords(was, now);
        if (lost) found.push({ pass, kind: pass === 'select' ? 'clause' : 'words', text: lost });
      }
    }
  }
  return found;
}

/** The words of `was` missing from `now`, in order (a multiset difference). */
function lostWords(was: string, now: string): string {
  const left = new Map<string, number>();
  for (const w of now.split(/\s+/)) left.set(w, (left.get(w) ?? 0) + 1);
  const lost: string[] = [];
  for (const w of was.split(/\s+/)) {
    const n = left.get(w) ?? 0;
    if (n > 0) left.set(w, n - 1);
    else if (w) lost.push(w);
  }
  return lost.join(' ');
}
