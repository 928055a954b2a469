import { parseArgs } from 'node:util';
import { DEFAULT_MODEL, countTokens, encodingForModel } from '../../core/index';
import { EXIT, type CliCommand } from '../command';
import { readInput, writeAll } from '../io';
import { checkModel, singleFile } from '../options';

const usage = `Usage: prompt-optimizer count [FILE|-] [options]

Prints the number of tokens in FILE (or stdin when FILE is '-' or omitted and stdin is not a
terminal), counted with the target model's real encoding.

Options:
      --model NAME  Target model, decides the encoding. Default ${DEFAULT_MODEL}.
  -j, --json        Print {"tokens", "characters", "model", "encoding"} as JSON.
  -h, --help        Show this help.

Examples:
  prompt-optimizer count examples/wordy-prompt.md
  echo "Hello world" | prompt-optimizer count --model gpt-4
`;

export const command: CliCommand = {
  name: 'count',
  summary: "Print a text's token count for a model",
  usage,
  async run(args, io) {
    const { values, positionals } = parseArgs({
      args: [...args],
      allowPositionals: true,
      strict: true,
      options: {
        model: { type: 'string' },
        json: { type: 'boolean', short: 'j', default: false },
      },
    });
    const file = singleFile(positionals);
    const model = checkModel(values.model);
    const text = await readInput(file, io);
    const tokens = countTokens(text, model);
    if (values.json) {
      const out = { tokens, characters: text.length, model, encoding: encodingForModel(model) };
      await writeAll(io.stdout, `${JSON.stringify(out)}\n`);
    } else {
      await writeAll(io.stdout, `${tokens}\n`);
    }
    return EXIT.OK;
  },
};
