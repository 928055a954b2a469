import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { CountToolInput, OptimizeToolInput } from '../../src/schemas/tools';
import { budgetLabel, countToolMessages, optimizeToolMessages } from '../../src/extension/logic/toolMessages';
import { ToolName } from '../../src/extension/tools/names';

const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
const tools: Record<string, any>[] = pkg.contributes.languageModelTools;

function jsonSchema(schema: z.ZodType): Record<string, unknown> {
  const { $schema: _, ...rest } = z.toJSONSchema(schema, { target: 'draft-7', io: 'input' }) as Record<string, unknown>;
  return rest;
}

describe('extension/tools: package.json languageModelTools and the messages', () => {
  it('contributes exactly the registered tools, with the shared input schemas (src/schemas/tools.ts)', () => {
    assert.deepEqual(tools.map((t) => t.name), [ToolName.Optimize, ToolName.Count]);
    assert.deepEqual(tools[0]!.inputSchema, jsonSchema(OptimizeToolInput));
    assert.deepEqual(tools[1]!.inputSchema, jsonSchema(CountToolInput));
    for (const tool of tools) {
      for (const field of ['displayName', 'toolReferenceName', 'userDescription', 'modelDescription']) assert.ok(tool[field], `${tool.name}.${field}`);
      assert.match(tool.name, /^[\w-]+$/);
    }
  });

  it('names a budget in the words the user set it, with its tokens', () => {
    assert.equal(budgetLabel(500, 500), '500 tokens');
    assert.equal(budgetLabel('500', undefined), '500 tokens');
    assert.equal(budgetLabel('50%', 266), '50% (266 tokens)');
    assert.equal(budgetLabel('1%', 1), '1% (1 token)');
  });

  it('confirms what optimizing will do: size, budget, mode, model, and that nothing is edited or sent', () => {
    const messages = optimizeToolMessages({ tokens: 1234, budget: '50%', budgetTokens: 617, mode: 'strict', model: 'gpt-4' });
    assert.equal(messages.invocation, 'Shortening a prompt of 1,234 tokens toward 50% (617 tokens)');
    assert.equal(messages.confirmation.title, 'Optimize prompt');
    assert.match(messages.confirmation.message, /^Shorten a prompt of 1,234 tokens toward 50% \(617 tokens\) \(strict, counted for gpt-4\), on this machine\./);
    assert.match(messages.confirmation.message, /no file is changed and nothing is sent anywhere/);
  });

  it('confirms what counting will do', () => {
    const messages = countToolMessages({ characters: 12345, model: 'gpt-4o' });
    assert.equal(messages.confirmation.title, 'Count tokens');
    assert.match(messages.confirmation.message, /^Count the tokens of a text of 12,345 characters with gpt-4o's tokenizer/);
  });
});
