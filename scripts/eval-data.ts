// Loads the shared evaluation data from ../shared/data (beside the repo); absent data → null.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const DATA_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '../../shared/data');

export interface QaGroup {
  context: string;
  questions: { question: string; answers: string[] }[];
}

type SquadJson = { data: { title: string; paragraphs: { context: string; qas: { question: string; answers: { text: string }[] }[] }[] }[] };

function readJson<T>(name: string): T | null {
  const file = resolve(DATA_DIR, name);
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as T) : null;
}

function groupOf(paragraphs: SquadJson['data'][number]['paragraphs']): QaGroup {
  return {
    context: paragraphs.map((p) => p.context).join('\n\n'),
    questions: paragraphs.flatMap((p) => p.qas.map((q) => ({ question: q.question, answers: q.answers.map((a) => a.text) }))),
  };
}

/** SQuAD paragraphs in consecutive groups of `size` (the last, shorter group is left out). */
export function loadSquadGroups(size = 8): QaGroup[] | null {
  const paragraphs = readJson<SquadJson>('squad-dev-v1.1-super-bowl-50.json')?.data[0]!.paragraphs;
  if (!paragraphs) return null;
  const groups: QaGroup[] = [];
  for (let i = 0; i + size <= paragraphs.length; i += size) groups.push(groupOf(paragraphs.slice(i, i + size)));
  return groups;
}

export const XQUAD_LANGS = ['en', 'de', 'es', 'el', 'ro', 'ru', 'tr', 'ar', 'hi', 'th', 'vi', 'zh'];

/** XQuAD dev in one language: one article (its paragraphs joined with a blank line) = one context. */
export function loadXquad(lang: string): QaGroup[] | null {
  return readJson<SquadJson>(`xquad-dev/xquad-dev.${lang}.json`)?.data.map((article) => groupOf(article.paragraphs)) ?? null;
}

export interface AnnotatedPrompt {
  id: string;
  kind: string;
  lang: string;
  text: string;
  task?: string;
  must_keep: string[];
  droppable: string[];
}

export function loadPromptsDev(): AnnotatedPrompt[] | null {
  return readJson<AnnotatedPrompt[]>('prompts-dev.json');
}

/** The files of real-prompts-dev/ listed in its manifest.json. */
export function loadRealPrompts(): { id: string; text: string }[] | null {
  const manifest = readJson<{ file: string }[]>('real-prompts-dev/manifest.json');
  return manifest?.map(({ file }) => ({ id: file, text: readFileSync(resolve(DATA_DIR, 'real-prompts-dev', file), 'utf8') })) ?? null;
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
