import type { EncodingName } from './models';
import type { Mode } from './options';

/** What one pass did, for traces and debugging. */
export interface PassReport {
  readonly name: string;
  /** Token count of the whole text after the pass. */
  readonly tokens: number;
}

/** One thing a pass took out of the prompt, for `--explain`, the extension's diff title and tests. */
export interface Removal {
  /**
   * The pass that removed it: rewrite (an aside to the reader, dropped whole at any budget), dedupe,
   * select, prune, elide, or fit (strict mode's last resort).
   */
  readonly pass: string;
  /** A whole sentence, few-shot example or block (code, data, table, front matter); or words of a kept sentence. */
  readonly kind: 'sentence' | 'example' | 'block' | 'clause' | 'words';
  readonly text: string;
}

export interface OptimizeResult {
  readonly text: string;
  readonly originalTokens: number;
  readonly optimizedTokens: number;
  /** (original − optimized) / original × 100, rounded to 2 decimals; 0 for empty input. */
  readonly reductionPercent: number;
  /** The budget resolved to tokens. */
  readonly budgetTokens: number;
  /**
   * True when the budget could not be met as asked: in relaxed mode the output is over budget because
   * protected content and the final request alone exceed it (the rest is then shortened by the ratio
   * asked for); in strict mode protected content had to be dropped.
   */
  readonly softLimitEnforced: boolean;
  readonly latencyMs: number;
  readonly mode: Mode;
  readonly model: string;
  readonly encoding: EncodingName;
  readonly passes: readonly PassReport[];
  /** What the passes removed, in pipeline order (not part of either API wire shape). */
  readonly removed: readonly Removal[];
}
