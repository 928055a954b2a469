/**
 * The MCP server behind `prompt-optimizer mcp`: the two agent tools of `src/schemas/tools.ts` on the
 * official SDK's `McpServer`. Transport-free, so tests can also connect it in memory.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import {
  COUNT_TOOL,
  CountToolInput,
  CountToolOutput,
  OPTIMIZE_TOOL,
  OptimizeToolInput,
  OptimizeToolOutput,
  countToolOutput,
  optimizeToolOutput,
} from '../../schemas/index';
import type { Core } from '../core';
import { isOptimizeErrorLike } from '../errors';

// Pure functions of their input, on this machine only: agents may call them without asking.
const ANNOTATIONS = { readOnlyHint: true, idempotentHint: true, openWorldHint: false, destructiveHint: false } as const;

export function createMcpServer(core: Core, version: string): McpServer {
  const server = new McpServer({ name: 'prompt-optimizer', version });
  server.registerTool(
    OPTIMIZE_TOOL.name,
    { title: OPTIMIZE_TOOL.title, description: OPTIMIZE_TOOL.description, inputSchema: OptimizeToolInput, outputSchema: OptimizeToolOutput, annotations: ANNOTATIONS },
    (input) => answer(() => optimizeToolOutput(core.optimize(input))),
  );
  server.registerTool(
    COUNT_TOOL.name,
    { title: COUNT_TOOL.title, description: COUNT_TOOL.description, inputSchema: CountToolInput, outputSchema: CountToolOutput, annotations: ANNOTATIONS },
    ({ text, model = core.DEFAULT_MODEL }) => answer(() => countToolOutput(text, core.countTokens(text, model), model, core.encodingForModel(model))),
  );
  return server;
}

/** Structured content plus the same JSON as text (for clients that read only `content`); a refused input is a tool error. */
function answer(compute: () => Record<string, unknown>): CallToolResult {
  try {
    const output = compute();
    return { structuredContent: output, content: [{ type: 'text', text: JSON.stringify(output) }] };
  } catch (error) {
    if (!isOptimizeErrorLike(error)) throw error;
    return { isError: true, content: [{ type: 'text', text: `${error.code}: ${error.message}` }] };
  }
}
