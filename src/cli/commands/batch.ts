import { createInterface } from 'node:readline';
import type { BudgetInput, OptimizeOptions } from '../../core/index';
import { EXIT, type CliCommand } from '../command';
import { loadCore, type Core } from '../core';
import { isOptimizeErrorLike } from '../errors';
import { formatCount, formatMs } from '../format';
import { openInput, stripBom, writeAll } from '../io';
import { OPTIMIZE_FLAGS, checkBudget, checkMode, checkModel, singleFile, parseFlags } from '../options';
import { toWireError, toWireResult, type WireError, type WireResult } from '../wire';

const usage = `Usage: prompt-optimizer batch [FILE|-] [options]

Reads JSON Lines requests from FILE (or stdin when FILE is '-' or omitted and stdin is not a
terminal), one object per line:

  {"text": "...", "budget": 500 | "40%", "mode": "relaxed" | "strict", "task": "...", "model": "gpt-4o", "id": any}

Only "text" is required; null means "not given". Writes one JSON result per request line, in the
same order, streaming (a large file is never held in memory). Blank lines are skipped and give no
output line. A bad line (invalid JSON, not an object, an unknown field, a wrong type, an invalid
budget/mode/model) gives {"error": {"code", "message", "param", "line"}} on its line, and the run
goes on. "id", when given, is echoed on the result or error. Lines may end in LF or CRLF.

Result fields: text, original_tokens, optimized_tokens, reduction_percent, budget_tokens,
soft_limit_enforced, latency_ms, mode, model, encoding.

Exit status: 0 when every line succeeded, 3 when at least one line gave an error object.

Options (defaults for requests that do not set the field):
  -b, --budget N|N%   Default budget. Default 1000.
  -m, --mode MODE     Default mode (relaxed or strict).
  -t, --task TEXT     Default task.
      --model NAME    Default model.
  -q, --quiet         No summary line on stderr.
  -h, --help          Show this help.

Example:
  printf '%s\\n' '{"text":"Please kindly summarize this.","budget":"50%"}' | prompt-optimizer batch
`;

const FIELDS = new Set(['text', 'budget', 'mode', 'task', 'model', 'id']);

export interface BatchDefaults {
  budget?: BudgetInput;
  mode?: string;
  task?: string;
  model?: string;
}

type BatchOutput = (WireResult | WireError) & { id?: unknown };

/**
 * One JSON Lines request → one output object. Pure apart from the clock; never throws for any line.
 * `line` is the 1-based line number, reported in error objects.
 */
export function processLine(core: Core, raw: string, line: number, defaults: BatchDefaults = {}): BatchOutput {
  let request: unknown;
  try {
    request = JSON.parse(raw);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return toWireError('invalid_json', `Line ${line} is not valid JSON: ${reason}`, null, line);
  }
  if (typeof request !== 'object' || request === null || Array.isArray(request)) {
    const got = request === null ? 'null' : Array.isArray(request) ? 'an array' : typeof request;
    return toWireError('request_invalid', `Line ${line} must be a JSON object like {"text": "..."}; got ${got}.`, null, line);
  }
  const fields = request as Record<string, unknown>;
  const id = 'id' in fields ? { id: fields.id } : {};
  const unknown = Object.keys(fields).find((key) => !FIELDS.has(key));
  if (unknown !== undefined)
    return { ...toWireError('param_unknown', `Unknown field "${unknown}"; allowed: ${[...FIELDS].join(', ')}.`, unknown, line), ...id };
  const pick = (key: keyof BatchDefaults) => (fields[key] === undefined || fields[key] === null ? defaults[key] : fields[key]);
  const options = { text: fields.text, budget: pick('budget'), mode: pick('mode'), task: pick('task'), model: pick('model') };
  for (const key of Object.keys(options) as (keyof typeof options)[]) if (options[key] === undefined) delete options[key];
  try {
    return { ...toWireResult(core.optimize(options as OptimizeOptions)), ...id };
  } catch (error) {
    if (isOptimizeErrorLike(error)) return { ...toWireError(error.code, error.message, error.param, line), ...id };
    const reason = error instanceof Error ? error.message : String(error);
    return { ...toWireError('internal_error', `Internal error on line ${line}: ${reason}`, null, line), ...id };
  }
}

export const command: CliCommand = {
  name: 'batch',
  summary: 'Optimize JSON Lines requests, one JSON result per line (streaming)',
  usage,
  async run(args, io) {
    const { values, positionals } = parseFlags(args, OPTIMIZE_FLAGS);
    const file = singleFile(positionals);
    const core = await loadCore();
    const defaults: BatchDefaults = {};
    if (values.budget !== undefined) defaults.budget = checkBudget(core, values.budget);
    if (values.mode !== undefined) defaults.mode = checkMode(core, values.mode);
    if (values.model !== undefined) defaults.model = checkModel(core, values.model);
    if (values.task !== undefined) defaults.task = values.task;

    const input = await openInput(file, io);
    const lines = createInterface({ input, crlfDelay: Infinity, terminal: false });
    const started = performance.now();
    let lineNumber = 0;
    let ok = 0;
    let failed = 0;
    for await (const rawLine of lines) {
      lineNumber++;
      const raw = lineNumber === 1 ? stripBom(rawLine) : rawLine;
      if (raw.trim() === '') continue;
      const output = processLine(core, raw, lineNumber, defaults);
      if ('error' in output) failed++;
      else ok++;
      await writeAll(io.stdout, `${JSON.stringify(output)}\n`);
    }
    if (!values.quiet) {
      const total = ok + failed;
      io.stderr.write(
        `batch: ${formatCount(total)} request${total === 1 ? '' : 's'}, ${formatCount(ok)} ok, ${formatCount(failed)} error${failed === 1 ? '' : 's'}, ${formatMs(performance.now() - started)}\n`,
      );
    }
    return failed > 0 ? EXIT.PARTIAL : EXIT.OK;
  },
};
