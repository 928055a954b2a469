/**
 * The status-bar token counter: tokens of the selection (several selections summed) or of the whole
 * document, for the configured model and only in the configured languages. Created once; one `update`
 * refreshes it. Counting stays off the typing path: an edit only re-arms a timer and the count runs
 * once the user pauses (logic/recount.ts); the tokenizer loads on the first count, and very large text
 * is estimated (marked ≈).
 */
import * as vscode from 'vscode';
import type { StatusSnapshot } from '../api';
import type { ConfigService } from '../config';
import { EXACT_COUNT_LIMIT_CHARS } from '../constants';
import { loadCore } from '../lazy';
import { countOrEstimate, type CountResult } from '../logic/count';
import { countsLanguage, IdleRunner, recountDelay, type RecountTrigger } from '../logic/recount';
import { formatStatusAccessibility, formatStatusText, formatStatusTooltip, type CountDisplay } from '../logic/format';
import { isPromptFile } from '../logic/promptFiles';

/** Editors whose text is not something a user writes prompts in. */
const HIDDEN_SCHEMES = new Set(['output', 'debug', 'vscode-terminal', 'vscode-scm']);

export class TokenCounter implements vscode.Disposable {
  private readonly item: vscode.StatusBarItem;
  private readonly disposables: vscode.Disposable[] = [];
  private readonly runner: IdleRunner;
  private generation = 0;
  private snapshot: StatusSnapshot;
  /** Last whole-document count, reused while only the selection moves. */
  private documentCache: { document: vscode.TextDocument; version: number; model: string; result: CountResult } | undefined;

  constructor(
    private readonly config: ConfigService,
    private readonly log: vscode.LogOutputChannel,
    selectModelCommand: string,
  ) {
    this.item = vscode.window.createStatusBarItem('promptOptimizer.tokenCount', vscode.StatusBarAlignment.Right, 100);
    this.item.name = 'Prompt Optimizer Token Count';
    this.item.command = { command: selectModelCommand, title: 'Select Model for Token Count' };
    this.snapshot = { visible: false, text: '', tooltip: '', accessibilityLabel: '', model: config.config.model };
    this.runner = new IdleRunner(
      () => this.update().catch((error: unknown) => this.log.error(`Token count failed: ${error instanceof Error ? error.message : String(error)}`)),
      { set: (callback, ms) => setTimeout(callback, ms), clear: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>) },
    );
    this.disposables.push(
      this.item,
      vscode.window.onDidChangeActiveTextEditor(() => this.schedule('editor')),
      vscode.window.onDidChangeTextEditorSelection((event) => {
        if (event.textEditor === vscode.window.activeTextEditor) this.schedule('selection');
      }),
      vscode.workspace.onDidChangeTextDocument((event) => {
        // The keystroke path: no counting here, only a timer re-armed (and nothing for other languages).
        if (event.document === vscode.window.activeTextEditor?.document && this.counts(event.document)) this.schedule('edit');
      }),
      config.onDidChange((change) => {
        if (change.statusBar) this.schedule('settings');
      }),
    );
    this.schedule('editor');
  }

  /** Recounts now and returns what the item shows. */
  async refresh(): Promise<StatusSnapshot> {
    this.cancelTimer();
    await this.update();
    return this.snapshot;
  }

  private schedule(trigger: RecountTrigger): void {
    const document = vscode.window.activeTextEditor?.document;
    const large = document !== undefined && this.documentCache?.document === document && this.documentCache.result.estimated;
    this.runner.request(recountDelay(trigger, large));
  }

  private cancelTimer(): void {
    this.runner.cancel();
  }

  private counts(document: vscode.TextDocument): boolean {
    return countsLanguage(document.languageId, this.config.config.statusBar.languages);
  }

  private hide(): void {
    this.item.hide();
    this.snapshot = { ...this.snapshot, visible: false };
  }

  private async update(): Promise<void> {
    const generation = ++this.generation;
    const { config } = this.config;
    const editor = vscode.window.activeTextEditor;
    if (!config.statusBar.enabled || !editor || HIDDEN_SCHEMES.has(editor.document.uri.scheme) || !this.counts(editor.document)) {
      this.hide();
      return;
    }
    const core = await loadCore();
    if (generation !== this.generation) return; // a newer update is on its way

    const model = config.model;
    let encoding: string;
    try {
      encoding = core.encodingForModel(model);
    } catch (error) {
      this.item.text = `$(warning) ${model}`;
      this.item.tooltip = `${core.isOptimizeError(error) ? error.message : String(error)}\nClick to choose a supported model.`;
      this.item.accessibilityInformation = { label: `Unsupported model ${model}. Choose a supported model.` };
      this.item.show();
      this.snapshot = { visible: true, text: this.item.text, tooltip: this.item.tooltip, accessibilityLabel: this.item.accessibilityInformation.label, model };
      return;
    }
    const count = (text: string): number => core.countTokens(text, model);
    const document = editor.document;
    const documentResult = this.countDocument(document, model, count);
    const selections = editor.selections.filter((selection) => !selection.isEmpty);

    let display: CountDisplay;
    if (selections.length > 0) {
      let tokens = 0;
      let characters = 0;
      let estimated = documentResult.estimated;
      for (const selection of selections) {
        const text = document.getText(selection);
        const result = countOrEstimate(text, EXACT_COUNT_LIMIT_CHARS, count);
        tokens += result.tokens;
        characters += text.length;
        estimated ||= result.estimated;
      }
      display = { tokens, documentTokens: documentResult.tokens, estimated, characters, model, encoding, budget: config.budget, selections: selections.length };
    } else {
      display = { tokens: documentResult.tokens, estimated: documentResult.estimated, characters: document.getText().length, model, encoding, budget: config.budget, selections: 0 };
    }
    if (config.statusBar.promptFileLimit > 0 && isPromptFile(document.fileName)) display = { ...display, promptFileLimit: config.statusBar.promptFileLimit };
    if (generation !== this.generation) return;
    this.item.text = formatStatusText(display);
    this.item.tooltip = formatStatusTooltip(display);
    const label = formatStatusAccessibility(display);
    this.item.accessibilityInformation = { label };
    this.item.show();
    this.snapshot = { visible: true, text: this.item.text, tooltip: this.item.tooltip, accessibilityLabel: label, model, tokens: display.tokens, estimated: display.estimated };
  }

  private countDocument(document: vscode.TextDocument, model: string, count: (text: string) => number): CountResult {
    // Keyed by the document object, not its URI: a new "Untitled-1" reuses the URI and starts at version 1 again.
    const cached = this.documentCache;
    if (cached && cached.document === document && cached.version === document.version && cached.model === model) return cached.result;
    const result = countOrEstimate(document.getText(), EXACT_COUNT_LIMIT_CHARS, count);
    this.documentCache = { document, version: document.version, model, result };
    return result;
  }

  dispose(): void {
    this.cancelTimer();
    this.generation++;
    this.documentCache = undefined;
    for (const disposable of this.disposables) disposable.dispose();
  }
}
