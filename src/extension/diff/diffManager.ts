/**
 * Owns every pending optimization: the read-only virtual documents (original and proposal) on our own
 * scheme, the `vscode.diff` editor between them, the context keys that show Accept/Discard, and the
 * single path that ends a proposal (accept, discard, or the user closing the tab).
 */
import * as vscode from 'vscode';
import type { AcceptOutcome, DiscardOutcome, ProposalInfo } from '../api';
import { ContextKey, PROPOSAL_SCHEME } from '../constants';
import type { EngineResult } from '../engine/types';
import { formatDiffTitle } from '../logic/format';
import { decideAccept, PendingStore, resolveTarget, type PendingProposal } from '../logic/pending';
import { formatRemovedDocument, formatReviewMessage, type Review } from '../logic/review';
import { showReview } from './reviewNotification';

export interface NewProposal {
  readonly document: vscode.TextDocument;
  readonly range: vscode.Range;
  /** `document.version` when the optimization started. */
  readonly version: number;
  readonly originalText: string;
  readonly result: EngineResult;
  readonly review: Review;
}

export class DiffManager implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly store = new PendingStore();
  /** Content of every virtual document we serve, by URI string. */
  private readonly contents = new Map<string, string>();
  /** Source documents closed while a proposal for them was pending. */
  private readonly closedSources = new Set<string>();
  private readonly changeEmitter = new vscode.EventEmitter<vscode.Uri>();
  private readonly disposables: vscode.Disposable[] = [];
  private nextId = 1;
  private diffActive = false;
  private hasPending = false;
  /** Proposal key of the diff that is the active editor, if any. */
  private activeKey: string | undefined;

  readonly onDidChange = this.changeEmitter.event;

  constructor(private readonly log: vscode.LogOutputChannel) {
    this.disposables.push(
      this.changeEmitter,
      vscode.workspace.registerTextDocumentContentProvider(PROPOSAL_SCHEME, this),
      vscode.window.onDidChangeActiveTextEditor(() => this.updateContext()),
      vscode.window.tabGroups.onDidChangeTabs((event) => this.onTabsChanged(event)),
      vscode.window.tabGroups.onDidChangeTabGroups(() => this.updateContext()),
      vscode.workspace.onDidCloseTextDocument((document) => this.onDocumentClosed(document)),
    );
    void this.setContext(ContextKey.DiffActive, false);
    void this.setContext(ContextKey.HasPending, false);
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.contents.get(uri.toString()) ?? '';
  }

  /** Registers a proposal and opens the diff. Resolves once the diff editor is shown. */
  async open(input: NewProposal): Promise<ProposalInfo> {
    const id = this.nextId++;
    const name = baseName(input.document.uri);
    const originalUri = vscode.Uri.from({ scheme: PROPOSAL_SCHEME, path: `/${id}/original/${name}` });
    const proposalUri = vscode.Uri.from({ scheme: PROPOSAL_SCHEME, path: `/${id}/proposal/${name}` });
    const removedUri = removedUriOf(proposalUri.toString());
    const { result } = input;
    const title = formatDiffTitle(result);
    const proposal: PendingProposal = {
      key: proposalUri.toString(),
      documentKey: input.document.uri.toString(),
      start: input.document.offsetAt(input.range.start),
      end: input.document.offsetAt(input.range.end),
      version: input.version,
      originalText: input.originalText,
      optimizedText: result.text,
      title,
      engine: result.engine,
      originalTokens: result.originalTokens,
      optimizedTokens: result.optimizedTokens,
      budgetTokens: result.budgetTokens,
      softLimitEnforced: result.softLimitEnforced,
      review: input.review,
    };
    this.contents.set(originalUri.toString(), input.originalText);
    this.contents.set(proposalUri.toString(), result.text);
    this.contents.set(removedUri.toString(), formatRemovedDocument(result.removed ?? [], input.review));
    this.store.add(proposal);
    this.closedSources.delete(proposal.documentKey);
    this.updateContext();
    await vscode.commands.executeCommand('vscode.diff', originalUri, proposalUri, title, { preview: false });
    this.updateContext();
    const info = toInfo(proposal);
    // Counts only: the log never holds prompt text.
    this.log.info(`Proposal #${id} opened: ${title}, ${input.review.engine}: ${input.review.summary ?? 'no removal report'}${input.review.rulesDropped.length > 0 ? `, drops ${input.review.rulesDropped.length} rule(s)` : ''}.`);
    showReview(info, {
      accept: () => this.accept(proposalUri),
      discard: () => this.discard(proposalUri),
      showRemoved: () => this.showRemoved(removedUri),
    });
    return info;
  }

  pending(): ProposalInfo[] {
    return this.store.all().map(toInfo);
  }

  contextKeys(): { diffActive: boolean; hasPending: boolean } {
    return { diffActive: this.diffActive, hasPending: this.hasPending };
  }

  /**
   * Replaces exactly the original range with the proposal, as one undoable edit, if the document is
   * unchanged since the optimization started. Otherwise refuses and keeps the proposal open.
   */
  async accept(target?: unknown): Promise<AcceptOutcome> {
    const proposal = await this.target(target, 'accept');
    if (!proposal) return { status: 'none', message: this.store.size === 0 ? 'No optimized prompt is waiting to be accepted.' : 'No optimized prompt was chosen.' };
    const document = vscode.workspace.textDocuments.find((d) => d.uri.toString() === proposal.documentKey);
    const open = document !== undefined && !document.isClosed && !this.closedSources.has(proposal.documentKey);
    const range = document ? new vscode.Range(document.positionAt(proposal.start), document.positionAt(proposal.end)) : undefined;
    const decision = decideAccept(proposal, {
      open,
      version: document?.version ?? -1,
      textInRange: document && range ? document.getText(range) : '',
    });
    if (!decision.ok || !document || !range) {
      const reason = decision.ok ? 'closed' : decision.reason;
      const message = decision.ok ? 'The document is no longer open.' : decision.message;
      this.log.warn(`Proposal ${shortId(proposal.key)} not accepted: the document ${reason === 'closed' ? 'was closed' : 'changed'}.`);
      this.offerCopy(message, proposal.optimizedText);
      return { status: 'refused', reason, message };
    }

    const edit = new vscode.WorkspaceEdit();
    edit.replace(document.uri, range, proposal.optimizedText);
    const applied = await vscode.workspace.applyEdit(edit);
    if (!applied) {
      const message = 'VS Code could not apply the edit (is the document read-only?). Nothing was replaced.';
      this.log.error(`Proposal ${shortId(proposal.key)}: applyEdit failed.`);
      this.offerCopy(message, proposal.optimizedText);
      return { status: 'refused', reason: 'edit_failed', message };
    }
    await this.close(proposal.key);
    await this.revealReplaced(document, proposal.start);
    this.log.info(`Proposal ${shortId(proposal.key)} accepted: ${proposal.originalTokens} → ${proposal.optimizedTokens} tokens.`);
    return { status: 'accepted', documentUri: proposal.documentKey };
  }

  /** Closes the diff and forgets the proposal; the document is not touched. */
  async discard(target?: unknown): Promise<DiscardOutcome> {
    const proposal = await this.target(target, 'discard');
    if (!proposal) return { status: 'none', message: 'No optimized prompt is waiting.' };
    await this.close(proposal.key);
    this.log.info(`Proposal ${shortId(proposal.key)} discarded.`);
    return { status: 'discarded', proposalUri: proposal.key };
  }

  private async showRemoved(uri: vscode.Uri): Promise<void> {
    if (!this.contents.has(uri.toString())) return;
    const document = await vscode.workspace.openTextDocument(uri);
    await vscode.languages.setTextDocumentLanguage(document, 'markdown');
    await vscode.window.showTextDocument(document, { preview: true, viewColumn: vscode.ViewColumn.Beside });
  }

  /** The one path that ends a proposal: forget it first, then close its tabs. */
  private async close(key: string): Promise<void> {
    const proposal = this.store.delete(key);
    if (!proposal) return;
    const originalKey = key.replace('/proposal/', '/original/');
    this.contents.delete(key);
    this.contents.delete(originalKey);
    this.contents.delete(removedUriOf(key).toString());
    const tabs = vscode.window.tabGroups.all.flatMap((group) => group.tabs).filter((tab) => isOurDiff(tab, key));
    if (tabs.length > 0) await vscode.window.tabGroups.close(tabs, true);
    if (this.store.forDocument(proposal.documentKey).length === 0) this.closedSources.delete(proposal.documentKey);
    this.updateContext();
  }

  private async target(target: unknown, verb: 'accept' | 'discard'): Promise<PendingProposal | undefined> {
    const key = proposalKeyOf(target);
    this.updateContext();
    const found = resolveTarget(this.store, key, this.activeKey);
    if (found || this.store.size === 0) return found;
    const picked = await vscode.window.showQuickPick(
      this.store.all().map((p) => ({ label: p.title, description: vscode.Uri.parse(p.documentKey).path.split('/').pop() ?? '', key: p.key })),
      { title: verb === 'accept' ? 'Accept which optimized prompt?' : 'Discard which optimized prompt?' },
    );
    return picked ? this.store.get(picked.key) : undefined;
  }

  private offerCopy(message: string, text: string): void {
    void vscode.window.showWarningMessage(message, 'Copy Optimized Text').then(async (choice) => {
      if (choice) await vscode.env.clipboard.writeText(text);
    });
  }

  private async revealReplaced(document: vscode.TextDocument, start: number): Promise<void> {
    try {
      const editor = await vscode.window.showTextDocument(document, { preview: false });
      const position = document.positionAt(start);
      editor.selection = new vscode.Selection(position, position);
      editor.revealRange(new vscode.Range(position, position));
    } catch (error) {
      this.log.warn(`Could not reveal the edited document: ${String(error)}`);
    }
  }

  private onTabsChanged(event: vscode.TabChangeEvent): void {
    for (const tab of event.closed) {
      const input = tab.input;
      if (!(input instanceof vscode.TabInputTextDiff) || input.modified.scheme !== PROPOSAL_SCHEME) continue;
      const key = input.modified.toString();
      if (!this.store.get(key)) continue;
      // Closing the diff by hand counts as discard.
      void this.close(key).then(() => this.log.info(`Proposal ${shortId(key)} discarded (diff closed).`));
    }
    this.updateContext();
  }

  private onDocumentClosed(document: vscode.TextDocument): void {
    const key = document.uri.toString();
    if (this.store.forDocument(key).length > 0) this.closedSources.add(key);
  }

  private updateContext(): void {
    const tab = vscode.window.tabGroups.activeTabGroup.activeTab;
    let active: string | undefined;
    if (tab?.input instanceof vscode.TabInputTextDiff && tab.input.modified.scheme === PROPOSAL_SCHEME) active = tab.input.modified.toString();
    const editorUri = vscode.window.activeTextEditor?.document.uri;
    if (!active && editorUri?.scheme === PROPOSAL_SCHEME) active = proposalKeyOf(editorUri);
    this.activeKey = active && this.store.get(active) ? active : undefined;
    const diffActive = this.activeKey !== undefined;
    const hasPending = this.store.size > 0;
    if (diffActive !== this.diffActive) {
      this.diffActive = diffActive;
      void this.setContext(ContextKey.DiffActive, diffActive);
    }
    if (hasPending !== this.hasPending) {
      this.hasPending = hasPending;
      void this.setContext(ContextKey.HasPending, hasPending);
    }
  }

  private async setContext(key: string, value: boolean): Promise<void> {
    await vscode.commands.executeCommand('setContext', key, value);
  }

  dispose(): void {
    for (const disposable of this.disposables) disposable.dispose();
    this.store.clear();
    this.contents.clear();
    void this.setContext(ContextKey.DiffActive, false);
    void this.setContext(ContextKey.HasPending, false);
  }
}

function isOurDiff(tab: vscode.Tab, key: string): boolean {
  return tab.input instanceof vscode.TabInputTextDiff && tab.input.modified.toString() === key;
}

/** The proposal key for a URI (or URI string) on our scheme, original side included. */
function proposalKeyOf(target: unknown): string | undefined {
  let uri: vscode.Uri | undefined;
  if (target instanceof vscode.Uri) uri = target;
  else if (typeof target === 'string') {
    try {
      uri = vscode.Uri.parse(target, true);
    } catch {
      return undefined;
    }
  }
  if (!uri || uri.scheme !== PROPOSAL_SCHEME) return undefined;
  return uri.with({ path: uri.path.replace(/^\/(\d+)\/original\//, '/$1/proposal/') }).toString();
}

/** The "what was removed" document of a proposal (not a diff side, so no proposal key maps to it). */
function removedUriOf(proposalKey: string): vscode.Uri {
  const uri = vscode.Uri.parse(proposalKey, true);
  return uri.with({ path: `${uri.path.replace(/\/proposal\//, '/removed/').replace(/\.[^./]*$/, '')}.removed.md` });
}

function baseName(uri: vscode.Uri): string {
  const last = uri.path.split('/').filter(Boolean).pop();
  return last && last.length > 0 ? last : 'prompt';
}

function shortId(key: string): string {
  return `#${/\/(\d+)\/proposal\//.exec(key)?.[1] ?? '?'}`;
}

function toInfo(p: PendingProposal): ProposalInfo {
  return {
    proposalUri: p.key,
    originalUri: p.key.replace('/proposal/', '/original/'),
    documentUri: p.documentKey,
    title: p.title,
    originalTokens: p.originalTokens,
    optimizedTokens: p.optimizedTokens,
    softLimitEnforced: p.softLimitEnforced,
    engine: p.engine,
    review: p.review,
    reviewMessage: formatReviewMessage(p.title, p.review),
    removedUri: removedUriOf(p.key).toString(),
  };
}
