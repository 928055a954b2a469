/**
 * What `activate()` returns and what the commands resolve to. The integration tests use these; other
 * extensions may too. Nothing here exposes a prompt's destination or the API key.
 */
import type { EngineFailureInfo } from './engine/types';
import type { Review } from './logic/review';

export interface ProposalInfo {
  /** URI of the read-only proposal (right side of the diff); the key of the pending optimization. */
  readonly proposalUri: string;
  /** URI of the read-only original (left side). */
  readonly originalUri: string;
  /** URI of the document the text came from. */
  readonly documentUri: string;
  readonly title: string;
  readonly originalTokens: number;
  readonly optimizedTokens: number;
  readonly softLimitEnforced: boolean;
  readonly engine: 'local' | 'remote';
  /** What was removed, dropped rules, and the engine, as shown beside the diff. */
  readonly review: Review;
  /** The review notification's text. */
  readonly reviewMessage: string;
  /** URI of the read-only "what was removed" document. */
  readonly removedUri: string;
}

export type OptimizeOutcome =
  /** `note`: what the user should know about the input, e.g. that only one of several selections was used. */
  | { readonly status: 'proposed'; readonly proposal: ProposalInfo; readonly note?: string }
  | { readonly status: 'refused'; readonly message: string }
  /** The engine found nothing to shorten: no diff is opened. */
  | { readonly status: 'unchanged'; readonly message: string }
  | { readonly status: 'cancelled' }
  | { readonly status: 'failed'; readonly failure: EngineFailureInfo; readonly fallbackOffered: boolean };

export type AcceptOutcome =
  | { readonly status: 'accepted'; readonly documentUri: string }
  | { readonly status: 'refused'; readonly reason: 'closed' | 'changed' | 'edit_failed'; readonly message: string }
  | { readonly status: 'none'; readonly message: string };

export type DiscardOutcome = { readonly status: 'discarded'; readonly proposalUri: string } | { readonly status: 'none'; readonly message: string };

export interface StatusSnapshot {
  readonly visible: boolean;
  readonly text: string;
  readonly tooltip: string;
  readonly accessibilityLabel: string;
  readonly model: string;
  readonly tokens?: number;
  readonly estimated?: boolean;
}

export interface PromptOptimizerApi {
  /** Pending optimizations, in the order they were made. */
  pending(): readonly ProposalInfo[];
  /** Current values of the context keys that gate the menus. */
  contextKeys(): { readonly diffActive: boolean; readonly hasPending: boolean };
  /** Recounts now (skipping the debounce) and returns the status-bar item's state. */
  refreshStatusBar(): Promise<StatusSnapshot>;
  /** Stores the remote engine's API key in SecretStorage (write-only; there is no getter). */
  storeApiKey(key: string): Promise<void>;
}
