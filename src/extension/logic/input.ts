/** Checks on the text about to be optimized, with messages a user can act on. Pure. */
import { formatCount } from './format';

export type InputProblem =
  | { readonly kind: 'empty'; readonly message: string }
  | { readonly kind: 'whitespace'; readonly message: string }
  | { readonly kind: 'binary'; readonly message: string }
  | { readonly kind: 'too_large'; readonly message: string };

export interface InputFacts {
  readonly text: string;
  /** True when the text is the selection (false: the whole document). */
  readonly isSelection: boolean;
  readonly maxChars: number;
}

/** Undefined when the text can be optimized; otherwise why not, in words. */
export function checkInput({ text, isSelection, maxChars }: InputFacts): InputProblem | undefined {
  const what = isSelection ? 'The selection' : 'The document';
  if (text.length === 0) return { kind: 'empty', message: `${what} is empty: there is nothing to optimize.` };
  if (text.length > maxChars) {
    return {
      kind: 'too_large',
      message: `${what} has ${formatCount(text.length)} characters; Prompt Optimizer handles up to ${formatCount(maxChars)}. Select a smaller part.`,
    };
  }
  if (text.trim().length === 0) return { kind: 'whitespace', message: `${what} contains only whitespace: there is nothing to optimize.` };
  if (looksBinary(text)) return { kind: 'binary', message: `${what} looks like binary data (it contains NUL characters), not a prompt.` };
  return undefined;
}

/** NUL characters do not occur in prompts; VS Code shows them when a binary file is opened as text. */
export function looksBinary(text: string): boolean {
  return text.slice(0, 65_536).includes('\u0000');
}

/** Why a document cannot be edited, or undefined when it can. `writable` comes from `workspace.fs.isWritableFileSystem`. */
export function readonlyReason(scheme: string, writable: boolean | undefined, ownScheme: string): string | undefined {
  if (scheme === ownScheme) return 'This is an optimization proposal. Accept or discard it instead of optimizing it again.';
  if (scheme === 'output' || scheme === 'vscode-settings' || scheme === 'git' || scheme === 'vscode-notebook-cell-output') {
    return `Documents of type "${scheme}" are read-only: open a prompt file or an untitled editor.`;
  }
  if (writable === false) return 'The document is read-only: its file system does not allow changes.';
  return undefined;
}

/** Why an empty proposal is refused, and what to do instead. */
export function emptyProposalMessage(budgetTokens: number | undefined, mode: 'relaxed' | 'strict'): string {
  const budget = budgetTokens === undefined ? 'the budget' : `the budget of ${budgetTokens === 1 ? '1 token' : `${formatCount(budgetTokens)} tokens`}`;
  const fix = mode === 'strict' ? 'Raise the budget or switch promptOptimizer.mode to relaxed.' : 'Raise the budget.';
  return `Nothing of this prompt fits ${budget}: it is smaller than any whole sentence or block of the prompt, so the proposal would be empty. ${fix} The text is unchanged.`;
}

/** With several selections only the primary one is optimized; says which (lines are 1-based). */
export function severalSelectionsNote(count: number, firstLine: number, lastLine: number): string {
  const lines = firstLine === lastLine ? `line ${firstLine}` : `lines ${firstLine}\u2013${lastLine}`;
  const others = count - 1 === 1 ? 'The other selection is left as it is' : `The other ${count - 1} selections are left as they are`;
  return `Prompt Optimizer optimizes one selection at a time: the primary one (${lines}). ${others}.`;
}
