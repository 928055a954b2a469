/** Identifiers shared by package.json and the code. Tests check that the two agree. */
export const EXTENSION_ID = 'prompt-optimizer.prompt-optimizer';
export const CONFIG_SECTION = 'promptOptimizer';
export const OUTPUT_CHANNEL_NAME = 'Prompt Optimizer';
/** URI scheme of the read-only virtual documents shown in the diff (original and proposal). */
export const PROPOSAL_SCHEME = 'prompt-optimizer';
/** The one SecretStorage key the remote engine's API key lives under. */
export const API_KEY_SECRET = 'promptOptimizer.apiKey';

/** Context keys used in package.json `when` clauses. */
export const ContextKey = {
  /** True while one of our diffs is the active editor: shows Accept/Discard in the editor title. */
  DiffActive: 'promptOptimizer.diffActive',
  /** True while at least one optimization waits for Accept or Discard: shows them in the palette. */
  HasPending: 'promptOptimizer.hasPending',
} as const;

/** Above this many characters a selection or document is not optimized (it would block the editor). */
export const MAX_OPTIMIZE_CHARS = 1_000_000;
/** Above this many characters the status bar shows an estimate (marked ≈) instead of an exact count. */
export const EXACT_COUNT_LIMIT_CHARS = 500_000;
