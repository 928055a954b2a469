import { EXIT, type CliCommand } from '../command';
import { loadCore } from '../core';
import { readInput, writeAll } from '../io';
import { checkModel, singleFile, parseFlags } from '../options';

const usage = `Usage: prompt-optimizer count [FILE|-] [options]

Prints the number of tokens in FILE (or stdin when FILE is '-' or omitted and stdin is not a
terminal), counted with the target model's real encoding.

Options:
      --model NAME  Target model, decides the encoding. Default gpt-4o.
  -j, --json        Print {"tokens", "characters", "model", "encoding"} as JSON
                    (characters: UTF-16 code units, as JavaScript counts them).
  -h, --help        Show this help.

Exit status: 0 success, 1 unreadable input, 2 bad arguments (unknown option, invalid
model).

Examples:
  prompt-optimizer count examples/wordy-prompt.md
  echo "Hello world" | prompt-optimizer count --model gpt-4
`;

export const command: CliCommand = {
  name: 'count',
  summary: "Print a text's token count for a model",
  usage,
  async run(args, io) {
    const { values, positionals } = parseFlags(args, {
      model: { type: 'string' },
      json: { type: 'boolean', short: 'j', default: false },
    });
    const file = singleFile(positionals);
    const core = await loadCore();
    const model = checkModel(core, values.model);
    const text = await readInput(file, io);
    const tokens = core.countTokens(text, model);
    if (values.json) {
      const out = { tokens, characters: text.length, model, encoding: core.encodingForModel(model) };
      await writeAll(io.stdout, `${JSON.stringify(out)}\n`);
    } else {
      await writeAll(io.stdout, `${tokens}\n`);
    }
    return EXIT.OK;
  },
};
