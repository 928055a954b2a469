/** How a word pattern of the form `[start][part]*` classifies ASCII code units. */
export interface AsciiClasses {
  start(c: number): boolean;
  part(c: number): boolean;
}

/**
 * Calls `onWord(start, end)` for each match of `pattern` in `text`, left to right, where `pattern` is a
 * global regex `[start][part]*` and `ascii` says exactly which ASCII code units each class holds.
 * ASCII is scanned by hand, which is what most prompts are; the regex decides wherever a non-ASCII
 * character could start or continue a word.
 */
export function scanWords(text: string, pattern: RegExp, ascii: AsciiClasses, onWord: (start: number, end: number) => void): void {
  const n = text.length;
  for (let i = 0; i < n; ) {
    const c = text.charCodeAt(i);
    if (c < 128) {
      if (!ascii.start(c)) {
        i++;
        continue;
      }
      let end = i + 1;
      while (end < n && ascii.part(text.charCodeAt(end))) end++;
      if (end === n || text.charCodeAt(end) < 128) {
        onWord(i, end);
        i = end;
        continue;
      }
    }
    // From here on the pattern finds the next word, as a scan of the whole text would.
    pattern.lastIndex = i;
    const match = pattern.exec(text);
    if (!match) return;
    onWord(match.index, match.index + match[0].length);
    i = match.index + match[0].length;
  }
}
