/**
 * A table of rules ("| ❌ Don't | ✅ Do instead |", "| Problem | Likely cause | Action |"): each row says
 * something of its own, as a list item does, so strict mode may keep its best rows under the header
 * instead of the whole table or nothing. A table of data (amounts, scores, a glossary of single words)
 * stays whole: a model that sums or looks up its rows needs every one of them.
 */
export interface TableRows {
  /** Length of the header row and delimiter row, with the line break after them. */
  readonly head: number;
  /** Each data row, as offsets into the table's text (without its line break). */
  readonly rows: readonly { start: number; end: number }[];
}

const DELIMITER = /^\s*\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)+\|?\s*$/;
/** Words a cell must average: rules are phrases, data are values. */
const MIN_WORDS_PER_CELL = 3;
/** A share of cells that are values (numbers, amounts, yes/no, marks) above which the table is data. */
const MAX_VALUE_CELLS = 0.2;
const VALUE = /^(?:[-+~≈<>]?\s*[$€£¥]?\s*\d[\d.,\s]*\s*(?:%|[$€£¥]|[kKmM]|\p{L}{1,3})?|yes|no|ja|nein|sí|si|oui|non|sim|não|✓|✔|✗|✘|x|-|—|n\/a)$/iu;
// Scripts without spaces: about two characters make a word.
const UNSPACED = /[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]/gu;

// Two to ten, in the languages the product ships: "all three test paths:", "die vier Kriterien:".
const COUNTS = [
  'two three four five six seven eight nine ten',
  'zwei drei vier fünf sechs sieben acht neun zehn',
  'dos tres cuatro cinco seis siete ocho nueve diez',
  'deux trois quatre cinq six sept huit neuf dix',
  'dois três quatro cinco seis sete oito nove dez',
].map((words) => words.split(' '));

/** Whether `lead` (the line before the table) counts `rows` items: then they are one set, kept whole. */
export function countsRows(lead: string, rows: number): boolean {
  const words = lead.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  return words.some((w) => w === String(rows) || COUNTS.some((list) => list[rows - 2] === w));
}

/**
 * The header and rows of `table` when it is a table of rules of at least two rows; else null. `lead`: the
 * line before the table, which may count its rows.
 */
export function rulesTableRows(table: string, lead = ''): TableRows | null {
  const lines = table.split('\n');
  if (lines.length < 4 || !DELIMITER.test(lines[1]!)) return null;
  const cells = lines.slice(2).flatMap(cellsOf);
  if (cells.length === 0) return null;
  const words = cells.reduce((n, cell) => n + wordsIn(cell), 0);
  const values = cells.filter((cell) => VALUE.test(cell)).length;
  if (words / cells.length < MIN_WORDS_PER_CELL || values / cells.length > MAX_VALUE_CELLS) return null;
  const head = lines[0]!.length + 1 + lines[1]!.length + 1;
  const rows: { start: number; end: number }[] = [];
  let start = head;
  for (const line of lines.slice(2)) {
    if (line.trim() !== '') rows.push({ start, end: start + line.length });
    start += line.length + 1;
  }
  return rows.length >= 2 && !countsRows(lead, rows.length) ? { head, rows } : null;
}

function cellsOf(row: string): string[] {
  return row
    .trim()
    .replace(/^\||\|$/g, '')
    .split(/(?<!\\)\|/)
    .map((cell) => cell.trim());
}

function wordsIn(cell: string): number {
  const unspaced = cell.match(UNSPACED)?.length ?? 0;
  const spaced = cell.replace(UNSPACED, ' ').split(/\s+/).filter(Boolean).length;
  return spaced + unspaced / 2;
}
