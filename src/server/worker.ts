/**
 * Worker-thread entry (piscina). Built to dist/server-worker.js; under tsx the pool loads this file directly.
 * Runs the core's `optimize`, which is CPU-bound, off the event loop.
 */
import { countTokens, isOptimizeError, optimize } from '../core/index';
import type { OptimizeTask, TaskOutcome } from './task';

// Load the encoding and the pipeline's data while the thread starts, not on the first request.
try {
  optimize({ text: 'Please could you kindly warm up the optimizer with this rather short sentence, thanks.', budget: 5 });
} catch {
  // A failure here surfaces on the first real request instead.
}

export default function runTask(task: OptimizeTask): TaskOutcome {
  try {
    // Tokens never outnumber UTF-8 bytes, so most inputs skip the extra count.
    if (Buffer.byteLength(task.text, 'utf8') > task.maxInputTokens) {
      const tokens = countTokens(task.text, task.model);
      if (tokens > task.maxInputTokens) {
        return { ok: false, error: { code: 'text_too_long', param: 'text', message: `The text is ${tokens} tokens; this server accepts at most ${task.maxInputTokens}.` } };
      }
    }
    const r = optimize({ text: task.text, budget: task.budget, mode: task.mode, task: task.task, model: task.model });
    return {
      ok: true,
      result: {
        text: r.text,
        originalTokens: r.originalTokens,
        optimizedTokens: r.optimizedTokens,
        reductionPercent: r.reductionPercent,
        budgetTokens: r.budgetTokens,
        softLimitEnforced: r.softLimitEnforced,
        latencyMs: r.latencyMs,
        model: r.model,
        encoding: r.encoding,
      },
    };
  } catch (error) {
    if (isOptimizeError(error)) return { ok: false, error: { code: error.code, param: error.param, message: error.message } };
    throw error;
  }
}
