/**
 * Bookkeeping of pending optimizations, free of VS Code types. Each proposal remembers its own
 * document, the exact range it came from (as offsets) and the document version it was computed
 * against, so several pending optimizations in different documents never mix up their ranges.
 */
import type { ProposalSummary } from './format';
import type { Review } from './review';

export interface PendingProposal extends ProposalSummary {
  /** Key of the proposal (the virtual document's URI as a string). */
  readonly key: string;
  /** URI (string) of the document the text came from. */
  readonly documentKey: string;
  /** Offsets of the original text in that document. */
  readonly start: number;
  readonly end: number;
  /** `document.version` when the optimization started. */
  readonly version: number;
  readonly originalText: string;
  readonly optimizedText: string;
  readonly title: string;
  readonly engine: 'local' | 'remote';
  readonly review: Review;
}

/** What the document looks like now, as far as accepting is concerned. */
export interface DocumentNow {
  /** False when the document was closed since the optimization started. */
  readonly open: boolean;
  readonly version: number;
  /** The text currently at the proposal's offsets. */
  readonly textInRange: string;
}

export type AcceptDecision =
  | { readonly ok: true }
  | { readonly ok: false; readonly reason: 'closed' | 'changed'; readonly message: string };

/** Accept only if the document is open and unchanged since the optimization started. */
export function decideAccept(proposal: PendingProposal, now: DocumentNow): AcceptDecision {
  if (!now.open) {
    return { ok: false, reason: 'closed', message: 'The document was closed after the optimization started, so nothing was replaced. Run Optimize Prompt again.' };
  }
  if (now.version !== proposal.version || now.textInRange !== proposal.originalText) {
    return {
      ok: false,
      reason: 'changed',
      message: 'The document changed after the optimization started, so nothing was replaced. The proposal is still open: copy it, or run Optimize Prompt again.',
    };
  }
  return { ok: true };
}

/** Every pending proposal, keyed by proposal URI. */
export class PendingStore {
  private readonly byKey = new Map<string, PendingProposal>();

  add(proposal: PendingProposal): void {
    this.byKey.set(proposal.key, proposal);
  }

  get(key: string): PendingProposal | undefined {
    return this.byKey.get(key);
  }

  delete(key: string): PendingProposal | undefined {
    const proposal = this.byKey.get(key);
    this.byKey.delete(key);
    return proposal;
  }

  forDocument(documentKey: string): PendingProposal[] {
    return [...this.byKey.values()].filter((p) => p.documentKey === documentKey);
  }

  all(): PendingProposal[] {
    return [...this.byKey.values()];
  }

  get size(): number {
    return this.byKey.size;
  }

  clear(): void {
    this.byKey.clear();
  }
}

/**
 * Which proposal a command means: the one named by `key` (editor-title button), else the one in the
 * active diff, else the only pending one. Undefined when the choice is ambiguous or nothing is pending.
 */
export function resolveTarget(store: PendingStore, key: string | undefined, activeKey: string | undefined): PendingProposal | undefined {
  if (key !== undefined) {
    const named = store.get(key);
    if (named) return named;
  }
  if (activeKey !== undefined) {
    const active = store.get(activeKey);
    if (active) return active;
  }
  const all = store.all();
  return all.length === 1 ? all[0] : undefined;
}
