/**
 * `prompt-optimizer mcp` end to end: the bundled CLI as a child process, driven by the MCP SDK's own client
 * over stdio, plus one raw run that checks stdout carries nothing but JSON-RPC.
 */
import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { once } from 'node:events';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { countTokens, optimize } from '../../src/core/index';
import { OptimizeToolOutput, optimizeToolOutput } from '../../src/schemas/index';
import { buildCli, ROOT, runCli } from './helpers';

const WORDY = readFileSync(join(__dirname, 'fixtures/wordy-agent-prompt.md'), 'utf8');
const NUMBERS = WORDY.match(/\$?\d[\d,.]*\d|\d/g) ?? [];

type ToolResult = Awaited<ReturnType<Client['callTool']>>;

function textOf(result: ToolResult): string {
  const blocks = result.content as { type: string; text?: string }[];
  assert.equal(blocks[0]?.type, 'text');
  return blocks[0]!.text!;
}

describe('cli: prompt-optimizer mcp (SDK client over stdio)', function () {
  this.timeout(120_000);
  let cli = '';
  let client: Client;
  const stderr: string[] = [];
  let logged: Promise<void>;

  before(async () => {
    cli = await buildCli();
    const transport = new StdioClientTransport({ command: process.execPath, args: [cli, 'mcp'], cwd: ROOT, stderr: 'pipe' });
    logged = new Promise((resolve) => {
      transport.stderr?.on('data', (chunk: Buffer) => {
        stderr.push(chunk.toString());
        if (stderr.join('').includes('\n')) resolve();
      });
    });
    client = new Client({ name: 'mcp-test', version: '1.0.0' });
    await client.connect(transport);
  });

  after(async () => {
    await client?.close();
  });

  it('initializes as prompt-optimizer with the tools capability, logging on stderr', async () => {
    await logged;
    assert.equal(client.getServerVersion()?.name, 'prompt-optimizer');
    assert.ok(client.getServerCapabilities()?.tools, 'tools capability');
    assert.match(stderr.join(''), /serving optimize_prompt and count_tokens/);
  });

  it('lists both tools with input and output schemas and read-only, idempotent, closed-world annotations', async () => {
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((t) => t.name).sort(), ['count_tokens', 'optimize_prompt']);
    for (const tool of tools) {
      assert.equal(tool.inputSchema.type, 'object');
      assert.ok(tool.inputSchema.required?.includes('text'), `${tool.name} requires text`);
      assert.equal(tool.outputSchema?.type, 'object', `${tool.name} has an output schema`);
      assert.deepEqual(
        { readOnly: tool.annotations?.readOnlyHint, idempotent: tool.annotations?.idempotentHint, openWorld: tool.annotations?.openWorldHint },
        { readOnly: true, idempotent: true, openWorld: false },
      );
    }
    const optimizeTool = tools.find((t) => t.name === 'optimize_prompt')!;
    assert.deepEqual(Object.keys(optimizeTool.inputSchema.properties ?? {}).sort(), ['budget', 'mode', 'model', 'task', 'text']);
    assert.ok(optimizeTool.outputSchema?.required?.includes('optimized_tokens'));
  });

  it('optimizes a wordy prompt at "50%" within budget, every number kept, the same as the core', async () => {
    const result = await client.callTool({ name: 'optimize_prompt', arguments: { text: WORDY, budget: '50%' } });
    assert.notEqual(result.isError, true, textOf(result));
    const output = OptimizeToolOutput.parse(result.structuredContent);
    assert.ok(output.optimized_tokens <= output.budget_tokens, `${output.optimized_tokens} > ${output.budget_tokens}`);
    assert.ok(output.optimized_tokens < output.original_tokens / 2 + 1);
    assert.ok(NUMBERS.length >= 5);
    for (const number of NUMBERS) assert.ok(output.text.includes(number), `kept ${number}`);
    assert.ok(output.removed.length > 0 && output.summary.includes('removed'), output.summary);
    assert.deepEqual(output, optimizeToolOutput(optimize({ text: WORDY, budget: '50%' })));
    assert.deepEqual(JSON.parse(textOf(result)), result.structuredContent, 'the text block is the same JSON');
  });

  it('counts tokens like the core, per model', async () => {
    for (const model of ['gpt-4o', 'gpt-4']) {
      const result = await client.callTool({ name: 'count_tokens', arguments: { text: WORDY, model } });
      assert.deepEqual(result.structuredContent, {
        tokens: countTokens(WORDY, model),
        characters: WORDY.length,
        model,
        encoding: model === 'gpt-4' ? 'cl100k_base' : 'o200k_base',
      });
    }
  });

  it('answers a bad budget with a tool error carrying the core message, and keeps serving', async () => {
    const result = await client.callTool({ name: 'optimize_prompt', arguments: { text: WORDY, budget: '150%' } });
    assert.equal(result.isError, true);
    assert.equal(result.structuredContent, undefined);
    assert.match(textOf(result), /^budget_invalid: Budget must be a whole number of tokens .* Instead got "150%"\.$/);
    const next = await client.callTool({ name: 'count_tokens', arguments: { text: 'still here' } });
    assert.notEqual(next.isError, true);
  });

  it('answers an unknown model and a mistyped field with tool errors, not protocol errors', async () => {
    const model = await client.callTool({ name: 'count_tokens', arguments: { text: 'x', model: 'gpt-2' } });
    assert.equal(model.isError, true);
    assert.match(textOf(model), /^model_unsupported: Unsupported model "gpt-2"/);
    const typed = await client.callTool({ name: 'optimize_prompt', arguments: { text: 42 } });
    assert.equal(typed.isError, true);
    assert.match(textOf(typed), /text/);
  });
});

describe('cli: prompt-optimizer mcp stdout', function () {
  this.timeout(120_000);

  it('carries only JSON-RPC messages, and the server exits 0 when stdin closes', async () => {
    const cli = await buildCli();
    const child = spawn(process.execPath, [cli, 'mcp'], { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    const answered = new Promise<void>((resolve) => {
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
        if ((stdout.match(/\n/g) ?? []).length >= 2) resolve();
      });
    });
    const request = (id: number, method: string, params: object) => `${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`;
    child.stdin.write(request(1, 'initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } }));
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
    child.stdin.write(request(2, 'tools/call', { name: 'optimize_prompt', arguments: { text: WORDY, budget: 1 } }));
    await answered;
    const exited = once(child, 'exit');
    child.stdin.end();
    const [code] = await exited;
    assert.equal(code, 0);
    const lines = stdout.split('\n').filter((line) => line !== '');
    assert.equal(lines.length, 2, stdout.slice(0, 500));
    for (const line of lines) assert.equal(JSON.parse(line).jsonrpc, '2.0');
    assert.deepEqual(lines.map((line) => JSON.parse(line).id), [1, 2]);
  });

  it('refuses arguments with a usage error (exit 2), before starting', async () => {
    const run = runCli(await buildCli(), ['mcp', 'extra']);
    assert.equal(run.code, 2);
    assert.equal(run.stdout, '');
    assert.match(run.stderr, /mcp takes no arguments/);
  });
});
