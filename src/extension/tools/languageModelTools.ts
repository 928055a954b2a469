/**
 * The optimize and count tools for agents in VS Code (Copilot agent mode): `contributes.languageModelTools`
 * in package.json, implemented here with `vscode.lm.registerTool`. Same schemas and results as the MCP
 * server (`src/schemas/tools.ts`). They always run the local core: an agent's prompt never leaves the machine.
 * Fields the agent leaves out come from the user's settings.
 */
import * as vscode from 'vscode';
import type { ConfigService } from '../config';
import { loadCore, loadSchemas, type Core } from '../lazy';
import { countToolMessages, optimizeToolMessages, type ToolMessages } from '../logic/toolMessages';
import type { CountToolInput, OptimizeToolInput } from '../../schemas/tools';
import { ToolName } from './names';

export function registerLanguageModelTools(config: ConfigService, log: vscode.LogOutputChannel): vscode.Disposable {
  return vscode.Disposable.from(
    vscode.lm.registerTool<OptimizeToolInput>(ToolName.Optimize, {
      prepareInvocation: async ({ input }) => prepared(await describeOptimize(input, config)),
      invoke: async ({ input }) => {
        const [core, schemas] = await Promise.all([loadCore(), loadSchemas()]);
        const request = withSettings(checked(schemas.OptimizeToolInput, input), config);
        const result = coreCall(core, () => core.optimize(request));
        log.info(`Language model tool: optimized ${result.originalTokens} → ${result.optimizedTokens} tokens.`);
        return textResult(schemas.optimizeToolOutput(result));
      },
    }),
    vscode.lm.registerTool<CountToolInput>(ToolName.Count, {
      prepareInvocation: ({ input }) => prepared(countToolMessages({ characters: String(input?.text ?? '').length, model: input?.model ?? config.config.model })),
      invoke: async ({ input }) => {
        const [core, schemas] = await Promise.all([loadCore(), loadSchemas()]);
        const { text, model = config.config.model } = checked(schemas.CountToolInput, input);
        return textResult(coreCall(core, () => schemas.countToolOutput(text, core.countTokens(text, model), model, core.encodingForModel(model))));
      },
    }),
  );
}

function withSettings(input: OptimizeToolInput, config: ConfigService) {
  const { budget, mode, model, task } = config.config;
  return { text: input.text, budget: input.budget ?? budget, mode: input.mode ?? mode, model: input.model ?? model, task: input.task ?? task };
}

/** The confirmation names the prompt's size and the budget in tokens; input the core refuses is reported by `invoke`. */
async function describeOptimize(input: OptimizeToolInput, config: ConfigService): Promise<ToolMessages> {
  const request = withSettings(input, config);
  const core = await loadCore();
  try {
    const tokens = core.countTokens(String(request.text), request.model);
    return optimizeToolMessages({ tokens, budget: request.budget, budgetTokens: core.resolveBudget(request.budget, tokens), mode: request.mode, model: request.model });
  } catch {
    return optimizeToolMessages({ tokens: 0, budget: String(request.budget), mode: String(request.mode), model: String(request.model) });
  }
}

function prepared(messages: ToolMessages): vscode.PreparedToolInvocation {
  return {
    invocationMessage: messages.invocation,
    confirmationMessages: { title: messages.confirmation.title, message: new vscode.MarkdownString(messages.confirmation.message) },
  };
}

/** Input of the wrong shape: an error whose message the agent can act on. */
function checked<T>(schema: { safeParse(input: unknown): { success: true; data: T } | { success: false; error: { issues: { path: PropertyKey[]; message: string }[] } } }, input: unknown): T {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  throw new Error(parsed.error.issues.map((issue) => `${issue.path.map(String).join('.') || 'input'}: ${issue.message}`).join('; '));
}

/** The core's refusal (`budget_invalid: …`), the same text the MCP server and the CLI give. */
function coreCall<T>(core: Core, call: () => T): T {
  try {
    return call();
  } catch (error) {
    if (core.isOptimizeError(error)) throw new Error(`${error.code}: ${error.message}`);
    throw error;
  }
}

function textResult(output: object): vscode.LanguageModelToolResult {
  return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(JSON.stringify(output))]);
}
