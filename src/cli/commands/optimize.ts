import { EXIT, type CliCommand } from '../command';
import { loadCore } from '../core';
import { isOptimizeErrorLike } from '../errors';
import { explainLines, summaryLine } from '../format';
import { readInput, writeAll } from '../io';
import { OPTIMIZE_FLAGS, checkBudget, checkMode, checkModel, singleFile, parseFlags } from '../options';
import { toWireError, toWireResult } from '../wire';

const usage = `Usage: prompt-optimizer optimize [FILE|-] [options]

Shortens a prompt toward a token budget. Reads FILE, or stdin when FILE is '-' or omitted (and stdin
is not a terminal). Prints the optimized text on stdout and a one-line summary on stderr.

Options:
  -b, --budget N|N%     Token budget: whole tokens (e.g. 500) or a share of the original (e.g. 50%,
                        12.5%). Default 1000.
  -m, --mode MODE       relaxed or strict. relaxed (default): the budget is a target; code, tables,
                        front matter, <keep> spans and the final request are kept even if that
                        leaves the text over budget. strict: the budget is a ceiling.
  -t, --task TEXT       What the prompt is for or the question that will be asked; ranking prefers
                        content relevant to it.
      --model NAME      Target model, decides the tokenizer. Default gpt-4o.
  -j, --json            Print the full result as JSON (snake_case fields) instead of the text.
  -e, --explain         List on stderr what was removed (sentences, examples, blocks, words) and by
                        which pass.
  -q, --quiet           No summary line on stderr.
  -h, --help            Show this help.

Exit status: 0 success, 1 unreadable input, 2 bad arguments (unknown option, invalid
budget, mode or model).

Examples:
  prompt-optimizer optimize examples/wordy-prompt.md --budget 50%
  cat prompt.txt | prompt-optimizer optimize --budget 300 --mode strict > short.txt
  prompt-optimizer optimize prompt.md --task "Summarize the error handling" --json | jq .reduction_percent
`;

export const command: CliCommand = {
  name: 'optimize',
  summary: 'Shorten a prompt toward a token budget (text or --json on stdout)',
  usage,
  async run(args, io) {
    const { values, positionals } = parseFlags(args, {
      ...OPTIMIZE_FLAGS,
      json: { type: 'boolean', short: 'j', default: false },
      explain: { type: 'boolean', short: 'e', default: false },
    });
    const file = singleFile(positionals);
    const core = await loadCore();
    try {
      // Validate every flag before waiting on input, so a typo fails at once.
      const mode = checkMode(core, values.mode);
      const model = checkModel(core, values.model);
      const budget = checkBudget(core, values.budget);
      const text = await readInput(file, io);
      const result = core.optimize({ text, budget, mode, model, task: values.task ?? '' });
      if (values.json) await writeAll(io.stdout, `${JSON.stringify(toWireResult(result))}\n`);
      else await writeAll(io.stdout, result.text.endsWith('\n') || result.text === '' ? result.text : `${result.text}\n`);
      if (!values.quiet) io.stderr.write(`${summaryLine(result)}\n`);
      if (values.explain) io.stderr.write(`${explainLines(result).join('\n')}\n`);
      return EXIT.OK;
    } catch (error) {
      // With --json, a refused request is also reported as a JSON error object on stdout.
      if (values.json && isOptimizeErrorLike(error)) await writeAll(io.stdout, `${JSON.stringify(toWireError(error.code, error.message, error.param))}\n`);
      throw error;
    }
  },
};
