/**
 * What every Optimize command ends with when it proposes nothing or something: a refusal the user reads
 * (never an empty proposal that one click on Accept would write), "Already concise", and the review shown
 * beside a diff. Shared by the selection, whole-document and string-literal commands.
 */
import * as vscode from 'vscode';
import type { OptimizeOutcome } from '../api';
import type { loadCore } from '../lazy';
import { droppedRules, summarizeRemovals, type RemovedUnit } from '../logic/review';
import type { CommandDeps } from './index';

export function refuse(deps: CommandDeps, message: string): OptimizeOutcome {
  deps.log.info(`Optimize refused: ${message}`);
  void vscode.window.showWarningMessage(message);
  return { status: 'refused', message };
}

export function alreadyConcise(deps: CommandDeps, detail = ''): OptimizeOutcome {
  const message = `Already concise: nothing to shorten in this prompt${detail ? ` (${detail})` : ''}.`;
  deps.log.info(message);
  void vscode.window.showInformationMessage(message);
  return { status: 'unchanged', message };
}

/** The review beside a proposal: what the core removed, the rules among it, and which engine ran. */
export function reviewOf(core: Awaited<ReturnType<typeof loadCore>>, removed: readonly RemovedUnit[] | undefined, engine: string) {
  return { summary: removed ? summarizeRemovals(removed) : undefined, rulesDropped: droppedRules(removed ?? [], core.statesRule), engine };
}
