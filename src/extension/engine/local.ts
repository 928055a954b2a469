/** The local engine: the core, in this extension host. */
import { loadCore } from '../lazy';
import { cancelled, EngineError, type EngineRequest, type EngineResult } from './types';

export async function optimizeLocally(request: EngineRequest, signal: AbortSignal): Promise<EngineResult> {
  const core = await loadCore();
  // Let the progress notification paint before the synchronous core runs.
  await new Promise((resolve) => setTimeout(resolve, 0));
  if (signal.aborted) throw cancelled();
  let result;
  try {
    result = core.optimize({ text: request.text, budget: request.budget, mode: request.mode, task: request.task, model: request.model });
  } catch (error) {
    if (core.isOptimizeError(error)) throw new EngineError({ kind: 'invalid_options', code: error.code, message: error.message, fallbackSuggested: false });
    throw error;
  }
  if (signal.aborted) throw cancelled();
  return {
    text: result.text,
    originalTokens: result.originalTokens,
    optimizedTokens: result.optimizedTokens,
    budgetTokens: result.budgetTokens,
    softLimitEnforced: result.softLimitEnforced,
    latencyMs: result.latencyMs,
    engine: 'local',
    removed: result.removed,
  };
}
