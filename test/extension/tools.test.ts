import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { countTokens, optimize } from '../../src/core';
import { ToolName } from '../../src/extension/tools/names';
import { optimizeToolOutput } from '../../src/schemas/tools';
import { getApi, PROMPT, setSetting } from './helpers';

/** Invokes a tool as an agent would (outside a chat, so the test host confirms by itself) and parses its JSON. */
async function invoke(name: string, input: object): Promise<unknown> {
  const result = await vscode.lm.invokeTool(name, { input, toolInvocationToken: undefined });
  assert.equal(result.content.length, 1);
  const part = result.content[0];
  assert.ok(part instanceof vscode.LanguageModelTextPart, 'one text part');
  return JSON.parse(part.value);
}

describe('Language Model Tools (vscode.lm)', () => {
  before(async () => {
    await getApi();
  });

  it('registers both tools with their input schemas', () => {
    for (const name of Object.values(ToolName)) {
      const tool = vscode.lm.tools.find((t) => t.name === name);
      assert.ok(tool, `${name} is registered`);
      assert.deepEqual((tool.inputSchema as { required?: string[] }).required, ['text']);
    }
  });

  it('optimize returns what the core returns', async () => {
    for (const request of [
      { text: PROMPT, budget: '50%', mode: 'relaxed', model: 'gpt-4o', task: '' },
      { text: PROMPT, budget: 40, mode: 'strict', model: 'gpt-4', task: 'What was the revenue?' },
    ] as const) {
      const output = await invoke(ToolName.Optimize, request);
      assert.deepEqual(output, optimizeToolOutput(optimize(request)), JSON.stringify(request));
    }
  });

  it('count returns what the core returns', async () => {
    assert.deepEqual(await invoke(ToolName.Count, { text: PROMPT, model: 'gpt-4' }), {
      tokens: countTokens(PROMPT, 'gpt-4'),
      characters: PROMPT.length,
      model: 'gpt-4',
      encoding: 'cl100k_base',
    });
  });

  it('fills what the agent leaves out from the settings', async () => {
    await setSetting('budget', '30%');
    await setSetting('mode', 'strict');
    try {
      const output = await invoke(ToolName.Optimize, { text: PROMPT });
      assert.deepEqual(output, optimizeToolOutput(optimize({ text: PROMPT, budget: '30%', mode: 'strict' })));
    } finally {
      await setSetting('budget', undefined);
      await setSetting('mode', undefined);
    }
  });

  it("refuses a bad budget, an unknown model and a missing text with the core's or the schema's message", async () => {
    await assert.rejects(invoke(ToolName.Optimize, { text: PROMPT, budget: '150%' }), /budget_invalid: Budget must be a whole number of tokens/);
    await assert.rejects(invoke(ToolName.Count, { text: PROMPT, model: 'gpt-2' }), /model_unsupported: Unsupported model "gpt-2"/);
    await assert.rejects(invoke(ToolName.Count, {}), /text: /);
  });
});
