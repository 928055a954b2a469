import type { Readable, Writable } from 'node:stream';
import { CliUsageError, EXIT, type CliCommand } from '../command';
import { loadCore } from '../core';
import { parseFlags } from '../options';
import { VERSION } from '../version';

const usage = `Usage: prompt-optimizer mcp

Runs a Model Context Protocol server over stdio for agents (VS Code, Claude Code, Cursor …). Two tools:
  optimize_prompt  {text, budget?, mode?, task?, model?} → the shortened text, token counts, what was removed
  count_tokens     {text, model?} → the token count and the encoding
Both are read-only, idempotent and local. stdout carries only protocol messages; logs go to stderr.
The server ends when the client closes stdin.

Register it with an agent as the command 'prompt-optimizer' (or 'node /path/to/dist/cli.js') with the
argument 'mcp'; README.md shows the configuration for VS Code, Claude Code and Cursor.
`;

export const command: CliCommand = {
  name: 'mcp',
  summary: 'Serve the optimize and count tools to agents over MCP (stdio)',
  usage,
  async run(args, io) {
    const { positionals } = parseFlags(args, {});
    if (positionals.length > 0) throw new CliUsageError(`mcp takes no arguments, got '${positionals[0]}'`);
    // The SDK loads only for this command, so the others start as fast as before.
    const [core, { createMcpServer }, { StdioServerTransport }] = await Promise.all([
      loadCore(),
      import('../mcp/server'),
      import('@modelcontextprotocol/sdk/server/stdio.js'),
    ]);
    const server = createMcpServer(core, VERSION);
    const transport = new StdioServerTransport(io.stdin as Readable, io.stdout as Writable);
    const closed = new Promise<void>((resolve) => {
      transport.onclose = () => resolve();
      // The transport does not watch for the end of stdin: a client that goes away ends the server.
      io.stdin.once('end', () => void server.close());
    });
    transport.onerror = (error) => io.stderr.write(`prompt-optimizer mcp: ${error.message}\n`);
    await server.connect(transport);
    io.stderr.write(`prompt-optimizer mcp ${VERSION}: serving optimize_prompt and count_tokens on stdio\n`);
    await closed;
    return EXIT.OK;
  },
};
