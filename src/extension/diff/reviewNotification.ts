/**
 * The notification beside a new diff: counts, engine and what was lost, in full (a tab title gets
 * cut), with labelled Accept and Discard buttons where the user is looking, so nobody has to find
 * them among the diff toolbar's icons.
 */
import * as vscode from 'vscode';
import type { AcceptOutcome, DiscardOutcome, ProposalInfo } from '../api';

export interface ReviewActions {
  accept(): Promise<AcceptOutcome>;
  discard(): Promise<DiscardOutcome>;
  showRemoved(): Promise<void>;
}

export const ACCEPT_BUTTON = 'Accept';
export const DISCARD_BUTTON = 'Discard';
export const REMOVED_BUTTON = 'What Was Removed';

export function showReview(proposal: ProposalInfo, actions: ReviewActions): void {
  // A dropped rule or a missed budget is a warning; an ordinary proposal is information.
  const warn = proposal.review.rulesDropped.length > 0 || proposal.softLimitEnforced;
  const show = warn ? vscode.window.showWarningMessage : vscode.window.showInformationMessage;
  const buttons = proposal.review.summary !== undefined ? [ACCEPT_BUTTON, DISCARD_BUTTON, REMOVED_BUTTON] : [ACCEPT_BUTTON, DISCARD_BUTTON];
  void show(proposal.reviewMessage, ...buttons).then(async (choice) => {
    if (choice === ACCEPT_BUTTON) {
      const outcome = await actions.accept();
      if (outcome.status === 'none') void vscode.window.showInformationMessage('This proposal is no longer open.');
    } else if (choice === DISCARD_BUTTON) await actions.discard();
    else if (choice === REMOVED_BUTTON) await actions.showRemoved();
  });
}
