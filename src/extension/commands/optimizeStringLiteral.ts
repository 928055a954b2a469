/**
 * Optimize Prompt with the cursor in a string literal and nothing selected: the literal's value (escapes
 * decoded, the frame of a multi-line prompt left out) goes to the local core, and the diff and Accept show
 * and write the result in the literal's own quoting and escapes (`logic/literalCodec.ts`).
 */
import * as vscode from 'vscode';
import type { OptimizeOutcome } from '../api';
import { optimizeLocally } from '../engine/local';
import { isEngineError } from '../engine/types';
import { loadCore } from '../lazy';
import { normalizeBudgetSetting, type BudgetValue } from '../logic/budget';
import { literalBody, literalCodec } from '../logic/literalCodec';
import { engineLabel } from '../logic/review';
import { emptyProposalMessage } from '../logic/input';
import { findStringLiteral, literalFamily } from '../logic/stringLiterals';
import type { CommandDeps } from './index';
import { alreadyConcise, refuse, reviewOf } from './outcome';

export interface LiteralTarget {
  readonly editor: vscode.TextEditor;
  /** The literal's body in the document: what is replaced on Accept. */
  readonly range: vscode.Range;
  readonly codec: ReturnType<typeof literalCodec>;
}

/** The string literal under a lone cursor in a TypeScript/JavaScript or Python editor, if any. */
export function stringLiteralAtCursor(editor: vscode.TextEditor | undefined): LiteralTarget | undefined {
  if (!editor || editor.selections.length !== 1 || !editor.selection.isEmpty) return undefined;
  const family = literalFamily(editor.document.languageId);
  if (!family) return undefined;
  const { document } = editor;
  const literal = findStringLiteral(document.getText(), document.offsetAt(editor.selection.active), family);
  if (!literal) return undefined;
  const source = document.getText().slice(literal.start, literal.end);
  const body = literalBody(source);
  const start = literal.start + body.start;
  const range = new vscode.Range(document.positionAt(start), document.positionAt(literal.start + body.end));
  return { editor, range, codec: literalCodec(literal, source.slice(body.start, body.end)) };
}

export async function optimizeStringLiteral(deps: CommandDeps, target: LiteralTarget, budgetArg: BudgetValue | undefined): Promise<OptimizeOutcome> {
  const { document } = target.editor;
  const text = target.codec.value;
  if (text.trim() === '') return refuse(deps, 'This string literal is empty: there is no prompt to optimize.');
  const core = await loadCore();
  const { config } = deps.config;
  const budget = budgetArg ?? normalizeBudgetSetting(config.budget, core.DEFAULT_BUDGET, core.validateBudget).budget;
  const version = document.version;
  deps.log.info(`Optimize string literal: ${text.length} characters, budget ${budget}, ${config.mode}, ${config.model} (local engine).`);
  let result;
  try {
    result = await optimizeLocally({ text, budget, mode: config.mode, task: config.task, model: config.model }, new AbortController().signal);
  } catch (error) {
    if (isEngineError(error)) return refuse(deps, error.info.message);
    throw error;
  }
  if (result.text.trim() === '') return refuse(deps, emptyProposalMessage(result.budgetTokens, config.mode));
  const originalText = document.getText(target.range);
  const encoded = target.codec.encode(result.text);
  if (encoded === originalText) return alreadyConcise(deps);
  const review = reviewOf(core, result.removed, engineLabel('local'));
  const proposal = await deps.diffs.open({ document, range: target.range, version, originalText, result: { ...result, text: encoded }, review });
  return { status: 'proposed', proposal };
}
