/**
 * When the status-bar counter recounts. Counting must never compete with typing: an edit only re-arms
 * a timer, and the count runs once the user has paused; a selection move (cheap, and the user is
 * waiting for the number) recounts sooner. Pure: the timer functions are passed in.
 */

export type RecountTrigger = 'editor' | 'settings' | 'selection' | 'edit';

/** Pause after the last keystroke before the document is counted again. */
export const EDIT_IDLE_MS = 750;
/** For text too large to count exactly (estimated), wait longer: every count samples it again. */
export const LARGE_EDIT_IDLE_MS = 2000;
export const SELECTION_DEBOUNCE_MS = 150;

/** Delay before recounting after `trigger`; `large`: the document is above the exact-count limit. */
export function recountDelay(trigger: RecountTrigger, large: boolean): number {
  if (trigger === 'edit') return large ? LARGE_EDIT_IDLE_MS : EDIT_IDLE_MS;
  if (trigger === 'selection') return SELECTION_DEBOUNCE_MS;
  return large ? SELECTION_DEBOUNCE_MS : 0;
}

/** Whether documents of `languageId` are counted. `"*"` in the list means every language. */
export function countsLanguage(languageId: string, languages: readonly string[]): boolean {
  return languages.includes('*') || languages.includes(languageId);
}

export interface Timers {
  set(callback: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

/** Runs `work` once no request came for the requested delay: a burst of requests runs it once. */
export class IdleRunner {
  private handle: unknown;
  private pending = false;

  constructor(private readonly work: () => void, private readonly timers: Timers) {}

  request(delayMs: number): void {
    this.cancel();
    this.pending = true;
    this.handle = this.timers.set(() => {
      this.pending = false;
      this.handle = undefined;
      this.work();
    }, delayMs);
  }

  cancel(): void {
    if (this.pending) this.timers.clear(this.handle);
    this.pending = false;
    this.handle = undefined;
  }

  get isPending(): boolean {
    return this.pending;
  }
}
