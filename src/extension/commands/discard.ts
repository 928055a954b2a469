import type { DiscardOutcome } from '../api';
import type { CommandDeps } from './index';

/** Discard Proposal: closes the diff, leaves the document as it is. */
export async function discardCommand(deps: CommandDeps, target?: unknown): Promise<DiscardOutcome> {
  return deps.diffs.discard(target);
}
