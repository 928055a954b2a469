/**
 * Optimize Prompt and Optimize Prompt with Budget…: check the input, run the chosen engine under a
 * cancellable progress notification, then hand the result to the DiffManager. Every refusal is a
 * message, never an exception; the command resolves to an `OptimizeOutcome`.
 */
import * as vscode from 'vscode';
import type { OptimizeOutcome } from '../api';
import { MAX_OPTIMIZE_CHARS, PROPOSAL_SCHEME } from '../constants';
import { loadCore, loadRemote } from '../lazy';
import { optimizeLocally } from '../engine/local';
import { isEngineError, type EngineFailureInfo, type EngineRequest, type EngineResult } from '../engine/types';
import { budgetInputProblem, normalizeBudgetSetting, parseBudgetInput, type BudgetValue } from '../logic/budget';
import { isUnchanged, placeResult } from '../logic/edges';
import { formatCount, formatDiffTitle, formatTokens } from '../logic/format';
import { checkInput, emptyProposalMessage, readonlyReason, severalSelectionsNote } from '../logic/input';
import { baseUrlProblem, endpointFor, originOf } from '../logic/remote';
import { engineLabel } from '../logic/review';
import type { EngineKind } from '../logic/settings';
import type { CommandDeps } from './index';
import { optimizeStringLiteral, stringLiteralAtCursor } from './optimizeStringLiteral';
import { alreadyConcise, refuse, reviewOf } from './outcome';

export interface OptimizeArgs {
  /** Overrides the budget setting (tokens or "N%"). */
  readonly budget?: BudgetValue;
  /** Optimize the whole document without asking when nothing is selected. */
  readonly wholeDocument?: boolean;
}

export function optimizeCommand(deps: CommandDeps, args?: unknown): Promise<OptimizeOutcome> {
  const options = isArgs(args) ? args : {};
  const literal = stringLiteralAtCursor(vscode.window.activeTextEditor);
  return literal ? optimizeStringLiteral(deps, literal, options.budget) : optimizePrompt(deps, options);
}

/** Asks for a budget (validated as you type), or takes it from the first argument. */
export async function optimizeWithBudgetCommand(deps: CommandDeps, budgetArg?: unknown): Promise<OptimizeOutcome> {
  const core = await loadCore();
  let input: string | undefined;
  if (typeof budgetArg === 'string' || typeof budgetArg === 'number') input = String(budgetArg);
  else {
    input = await vscode.window.showInputBox({
      title: 'Prompt Optimizer: Optimize Prompt with Budget',
      prompt: 'Token budget: a number of tokens (500) or a share of the original (40%).',
      value: String(deps.config.config.budget),
      placeHolder: '500 or 40%',
      validateInput: (value) => budgetInputProblem(value, core.validateBudget),
    });
  }
  if (input === undefined) return { status: 'cancelled' };
  const problem = budgetInputProblem(input, core.validateBudget);
  if (problem) return refuse(deps, problem);
  return optimizeCommand(deps, { budget: parseBudgetInput(input) });
}

async function optimizePrompt(deps: CommandDeps, args: OptimizeArgs): Promise<OptimizeOutcome> {
  const editor = vscode.window.activeTextEditor;
  if (!editor) return refuse(deps, 'Open a prompt in an editor and select the text to optimize.');
  const document = editor.document;
  const readonly = readonlyReason(document.uri.scheme, vscode.workspace.fs.isWritableFileSystem(document.uri.scheme), PROPOSAL_SCHEME);
  if (readonly) return refuse(deps, readonly);

  let range: vscode.Range = editor.selection;
  let isSelection = !editor.selection.isEmpty;
  if (!isSelection) {
    if (document.getText().trim() === '') return refuse(deps, checkInput({ text: document.getText(), isSelection: false, maxChars: MAX_OPTIMIZE_CHARS })?.message ?? 'The document is empty.');
    if (!args.wholeDocument) {
      const choice = await vscode.window.showInformationMessage(
        'Nothing is selected. Optimize the whole document?',
        { modal: true, detail: `${formatCount(document.getText().length)} characters in ${document.fileName.split(/[\\/]/).pop() ?? 'the document'}.` },
        'Optimize Whole Document',
      );
      if (choice !== 'Optimize Whole Document') return { status: 'cancelled' };
    }
    range = new vscode.Range(document.positionAt(0), document.positionAt(document.getText().length));
    isSelection = false;
  }
  const selected = editor.selections.filter((s) => !s.isEmpty).length;
  const note = isSelection && selected > 1 ? severalSelectionsNote(selected, editor.selection.start.line + 1, editor.selection.end.line + 1) : undefined;
  if (note) {
    deps.log.info(note);
    void vscode.window.showInformationMessage(note);
  }

  const text = document.getText(range);
  const problem = checkInput({ text, isSelection, maxChars: MAX_OPTIMIZE_CHARS });
  if (problem) return refuse(deps, problem.message);
  const version = document.version;

  const core = await loadCore();
  const { config } = deps.config;
  let budget = args.budget;
  if (budget === undefined) {
    const normalized = normalizeBudgetSetting(config.budget, core.DEFAULT_BUDGET, core.validateBudget);
    if (normalized.problem) {
      deps.log.warn(normalized.problem);
      void vscode.window.showWarningMessage(normalized.problem);
    }
    budget = normalized.budget;
  }
  const request: EngineRequest = { text, budget, mode: config.mode, task: config.task, model: config.model };

  const run = (engine: EngineKind): Promise<OptimizeOutcome> => runEngine(deps, engine, request, { document, range, version, originalText: text }, run);
  const outcome = await run(config.engine);
  return note && outcome.status === 'proposed' ? { ...outcome, note } : outcome;
}

interface Origin {
  readonly document: vscode.TextDocument;
  readonly range: vscode.Range;
  readonly version: number;
  readonly originalText: string;
}

async function runEngine(deps: CommandDeps, engine: EngineKind, request: EngineRequest, origin: Origin, rerun: (engine: EngineKind) => Promise<OptimizeOutcome>): Promise<OptimizeOutcome> {
  const { config } = deps.config;
  deps.log.info(`Optimize: engine ${engine}, model ${request.model}, budget ${request.budget}, mode ${request.mode}, ${request.text.length} characters.`);

  let apiKey: string | undefined;
  if (engine === 'remote') {
    const urlProblem = baseUrlProblem(config.remote.baseUrl);
    if (urlProblem) {
      void vscode.window.showErrorMessage(urlProblem, 'Open Settings').then((choice) => {
        if (choice) void vscode.commands.executeCommand('workbench.action.openSettings', 'promptOptimizer.remote');
      });
      return failed(deps, { kind: 'configuration', message: urlProblem, fallbackSuggested: false }, false);
    }
    if (config.remote.apiVariant === 'A' && (request.model !== 'gpt-4o' || request.task)) {
      deps.log.info('Variant A takes no model or task: the server counts with gpt-4o and ignores promptOptimizer.task.');
    }
    apiKey = await deps.keys.get();
    if (!apiKey) {
      const stored = (await vscode.commands.executeCommand<boolean>('promptOptimizer.setApiKey')) === true;
      apiKey = stored ? await deps.keys.get() : undefined;
      if (!apiKey) return failed(deps, { kind: 'no_key', message: 'The remote engine needs an API key: run "Prompt Optimizer: Set API Key".', fallbackSuggested: false }, false);
    }
  }

  const started = Date.now();
  let result: EngineResult;
  try {
    result = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: engine === 'remote' ? 'Optimizing prompt on the server…' : 'Optimizing prompt…', cancellable: true },
      async (_progress, token) => {
        const controller = new AbortController();
        const subscription = token.onCancellationRequested(() => controller.abort());
        try {
          if (engine === 'local') return await optimizeLocally(request, controller.signal);
          const core = await loadCore();
          const { optimizeRemotely } = await loadRemote();
          return await optimizeRemotely(request, config.remote, apiKey ?? '', controller.signal, {
            resolveBudget: core.resolveBudget,
            countForVariantA: (text) => core.countTokens(text, core.DEFAULT_MODEL),
            pageOrigin: deps.platform === 'web' ? browserOrigin() : undefined,
          });
        } finally {
          subscription.dispose();
        }
      },
    );
  } catch (error) {
    if (!isEngineError(error)) {
      deps.log.error(`Optimize failed unexpectedly: ${error instanceof Error ? error.message : String(error)}`);
      return failed(deps, { kind: 'invalid_response', message: 'Prompt Optimizer failed unexpectedly; see the log (Prompt Optimizer: Show Log).', fallbackSuggested: false }, false);
    }
    const failure = error.info;
    if (failure.kind === 'cancelled') {
      deps.log.info('Optimize cancelled.');
      return { status: 'cancelled' };
    }
    const offerLocal = engine === 'remote' && failure.fallbackSuggested && config.remote.fallbackToLocal;
    showFailure(deps, failure, offerLocal, () => void rerun('local'));
    return failed(deps, failure, offerLocal);
  }
  // The same words as the diff title: a strict budget met by dropping protected content is no budget missed.
  deps.log.info(`Optimize done in ${Date.now() - started} ms (${engine}): ${formatDiffTitle(result).replace(/^Prompt: /, '')}.`);
  if (origin.document.isClosed) return refuse(deps, 'The document was closed while optimizing.');
  return present(deps, engine, request, origin, result);
}

/** The result as the user sees it: refused when empty, "Already concise" when unchanged, else the diff and its review. */
async function present(deps: CommandDeps, engine: EngineKind, request: EngineRequest, origin: Origin, result: EngineResult): Promise<OptimizeOutcome> {
  const { config } = deps.config;
  // One click on Accept must never delete the prompt: an empty proposal is refused, not offered.
  if (result.text.trim() === '') return refuse(deps, emptyProposalMessage(result.budgetTokens, request.mode));
  const core = await loadCore();
  const countingModel = engine === 'remote' && config.remote.apiVariant === 'A' ? core.DEFAULT_MODEL : request.model;
  const placed = placeResult(result, origin.originalText, (text) => core.countTokens(text, countingModel));
  if (isUnchanged(origin.originalText, placed.text)) return alreadyConcise(deps, formatTokens(placed.originalTokens));
  const remote = engine === 'remote' ? { origin: originOf(endpointFor(config.remote.baseUrl, config.remote.apiVariant)), apiVariant: config.remote.apiVariant } : undefined;
  const review = reviewOf(core, placed.removed, engineLabel(engine, remote));
  const proposal = await deps.diffs.open({ ...origin, result: placed, review });
  return { status: 'proposed', proposal };
}

function showFailure(deps: CommandDeps, failure: EngineFailureInfo, offerLocal: boolean, useLocal: () => void): void {
  const actions: string[] = [];
  if (failure.kind === 'unauthorized' || failure.kind === 'no_key') actions.push('Set API Key');
  if (failure.kind === 'invalid_options' && failure.code === 'model_unsupported') actions.push('Select Model');
  if (failure.kind === 'invalid_options' && failure.code === 'budget_invalid') actions.push('Open Settings');
  if (offerLocal) actions.push('Use Local Engine');
  actions.push('Show Log');
  const show = failure.kind === 'rate_limited' ? vscode.window.showWarningMessage : vscode.window.showErrorMessage;
  void show(failure.message, ...actions).then((choice) => {
    if (choice === 'Set API Key') void vscode.commands.executeCommand('promptOptimizer.setApiKey');
    else if (choice === 'Select Model') void vscode.commands.executeCommand('promptOptimizer.selectModel');
    else if (choice === 'Open Settings') void vscode.commands.executeCommand('workbench.action.openSettings', 'promptOptimizer');
    else if (choice === 'Use Local Engine') useLocal();
    else if (choice === 'Show Log') deps.log.show(true);
  });
}

function failed(deps: CommandDeps, failure: EngineFailureInfo, fallbackOffered: boolean): OptimizeOutcome {
  const status = 'status' in failure && failure.status !== undefined ? ` (HTTP ${failure.status}${'code' in failure && failure.code ? ` ${failure.code}` : ''})` : '';
  deps.log.warn(`Optimize failed: ${failure.kind}${status}.`);
  return { status: 'failed', failure, fallbackOffered };
}

function browserOrigin(): string | undefined {
  return (globalThis as { location?: { origin?: string } }).location?.origin;
}

function isArgs(value: unknown): value is OptimizeArgs {
  // From editor/context menus VS Code passes the document URI: that is not an options object.
  return typeof value === 'object' && value !== null && !(value instanceof vscode.Uri) && ('budget' in value || 'wholeDocument' in value);
}
