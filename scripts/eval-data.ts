// Loads the shared evaluation data from ../shared/data (beside the repo); absent data → null.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const DATA_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '../../shared/data');

export interface QaGroup {
  context: string;
  questions: { question: string; answers: string[] }[];
}

/** SQuAD paragraphs in consecutive groups of `size` (the last, shorter group is left out). */
export function loadSquadGroups(size = 8): QaGroup[] | null {
  const file = resolve(DATA_DIR, 'squad-dev-v1.1-super-bowl-50.json');
  if (!existsSync(file)) return null;
  const paragraphs = JSON.parse(readFileSync(file, 'utf8')).data[0].paragraphs as { context: string; qas: { question: string; answers: { text: string }[] }[] }[];
  const groups: QaGroup[] = [];
  for (let i = 0; i + size <= paragraphs.length; i += size) {
    const slice = paragraphs.slice(i, i + size);
    groups.push({
      context: slice.map((p) => p.context).join('\n\n'),
      questions: slice.flatMap((p) => p.qas.map((q) => ({ question: q.question, answers: q.answers.map((a) => a.text) }))),
    });
  }
  return groups;
}

/** The prompts of awesome-chatgpt-prompts.csv (RFC 4180: quoted fields, doubled quotes). */
export function loadPrompts(): string[] | null {
  const file = resolve(DATA_DIR, 'awesome-chatgpt-prompts.csv');
  if (!existsSync(file)) return null;
  const rows = parseCsv(readFileSync(file, 'utf8'));
  return rows.slice(1).map((row) => row[1] ?? '').filter((p) => p.length > 0);
}

/** RFC 4180 CSV: quoted fields, doubled quotes, newlines inside quotes, LF or CRLF rows. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') (field += '"'), i++;
      else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') row.push(field), (field = '');
    else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      row.push(field), rows.push(row), (row = []), (field = '');
    } else field += c;
  }
  if (field !== '' || row.length) row.push(field), rows.push(row);
  return rows;
}

/** SQuAD answer normalization: lower case, no punctuation, no articles, single spaces. */
export function normalizeAnswer(text: string): string {
  return text.toLowerCase().replace(/[^\p{L}\p{N}\s]/gu, '').replace(/\b(a|an|the)\b/g, ' ').replace(/\s+/g, ' ').trim();
}
