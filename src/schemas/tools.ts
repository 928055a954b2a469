/**
 * The two agent tools (optimize, count) as one definition shared by the MCP server (`prompt-optimizer mcp`)
 * and the extension's Language Model Tools: names, descriptions, input and output schemas, and the mapping
 * from a core result to the tool's structured output. Field names are snake_case, like the CLI's `--json`.
 *
 * Inputs check only types: ranges, percentages and model names are left to the core, so a bad value comes
 * back with the core's own message (the one the CLI and the HTTP service give).
 */
import { z } from 'zod';
import { DEFAULT_BUDGET, MAX_BUDGET_TOKENS } from '../core/budget';
import { DEFAULT_MODEL, KNOWN_MODELS, type EncodingName } from '../core/models';
import type { OptimizeResult } from '../core/result';
import { toWireResult } from './result';

const MODEL_NAMES = KNOWN_MODELS.map((m) => m.model).join(', ');
const Tokens = z.number().int().nonnegative();

export const OPTIMIZE_TOOL = {
  name: 'optimize_prompt',
  title: 'Optimize prompt',
  description:
    'Shortens a natural-language prompt toward a token budget before it is sent to a language model. Keeps code, ' +
    'JSON/YAML, tables, numbers, names, URLs, placeholders and the instructions; front matter is kept byte for byte. ' +
    'Deterministic and local: the prompt never leaves the machine. Returns the shorter text, both token counts and what was removed.',
} as const;

export const COUNT_TOOL = {
  name: 'count_tokens',
  title: 'Count tokens',
  description: "Counts a text's tokens with the target model's real tokenizer encoding (o200k_base or cl100k_base). Local and exact.",
} as const;

const text = z.string().describe('The prompt, as plain text or Markdown.');
const model = z.string().optional().describe(`Target model; decides the tokenizer. One of ${MODEL_NAMES} (or a dated variant). Default "${DEFAULT_MODEL}" (in VS Code: the user's setting).`);

export const OptimizeToolInput = z.object({
  text,
  budget: z
    .union([z.number(), z.string()])
    .optional()
    .describe(`Target size: whole tokens from 1 to ${MAX_BUDGET_TOKENS} (500) or a share of the original above 0 and at most 100 ("40%"). Default ${DEFAULT_BUDGET} (in VS Code: the user's setting).`),
  mode: z.enum(['relaxed', 'strict']).optional().describe('"relaxed" (default; in VS Code the user\'s setting): the budget is a target, protected content is kept. "strict": the budget is a ceiling.'),
  task: z.string().optional().describe('What the prompt is for or the question that will be asked; content relevant to it is preferred.'),
  model,
});
export type OptimizeToolInput = z.infer<typeof OptimizeToolInput>;

export const RemovalOutput = z.object({
  pass: z.string().describe('The pass that removed it: rewrite (an aside to the reader), dedupe, select, prune, elide or fit.'),
  kind: z.enum(['sentence', 'example', 'block', 'clause', 'words']),
  text: z.string(),
});

export const OptimizeToolOutput = z.object({
  text: z.string().describe('The optimized prompt.'),
  original_tokens: Tokens,
  optimized_tokens: Tokens,
  reduction_percent: z.number().describe('Percentage of tokens removed, 0 to 100; may be fractional.'),
  budget_tokens: Tokens.describe('The budget resolved to tokens.'),
  soft_limit_enforced: z.boolean().describe('True when the budget could not be met as asked (see the summary).'),
  mode: z.enum(['relaxed', 'strict']),
  model: z.string(),
  encoding: z.string(),
  summary: z.string().describe('One line: the counts and what kinds of content were removed.'),
  removed: z.array(RemovalOutput).describe('What was removed, in pipeline order.'),
});
export type OptimizeToolOutput = z.infer<typeof OptimizeToolOutput>;

export const CountToolInput = z.object({ text: z.string().describe('The text to count.'), model });
export type CountToolInput = z.infer<typeof CountToolInput>;

export const CountToolOutput = z.object({
  tokens: Tokens,
  characters: Tokens.describe('UTF-16 code units, as JavaScript counts them.'),
  model: z.string(),
  encoding: z.string(),
});
export type CountToolOutput = z.infer<typeof CountToolOutput>;

/** A core result as the optimize tool's structured output (no latency: the same input gives the same output). */
export function optimizeToolOutput(result: OptimizeResult): OptimizeToolOutput {
  const { latency_ms: _latency, ...wire } = toWireResult(result);
  return {
    ...wire,
    summary: removalSummary(result),
    removed: result.removed.map(({ pass, kind, text: removedText }) => ({ pass, kind, text: removedText })),
  };
}

export function countToolOutput(text: string, tokens: number, model: string, encoding: EncodingName): CountToolOutput {
  return { tokens, characters: text.length, model, encoding };
}

type RemovalKind = OptimizeResult['removed'][number]['kind'];
const KIND_NAMES: Record<RemovalKind, readonly [string, string]> = {
  sentence: ['sentence', 'sentences'], example: ['example', 'examples'], block: ['block', 'blocks'],
  clause: ['part of a sentence', 'parts of sentences'], words: ['word cut', 'word cuts'],
};

/** e.g. `1200 → 590 tokens (−50.83%), budget 600; removed 9 sentences, 2 examples, 4 word cuts`. */
export function removalSummary(result: OptimizeResult): string {
  const counts = new Map<RemovalKind, number>();
  for (const removal of result.removed) counts.set(removal.kind, (counts.get(removal.kind) ?? 0) + 1);
  const removed = [...counts].map(([kind, n]) => `${n} ${KIND_NAMES[kind][n === 1 ? 0 : 1]}`);
  const change = result.reductionPercent > 0 ? `\u2212${result.reductionPercent}%` : '0%';
  const parts = [
    `${result.originalTokens} \u2192 ${result.optimizedTokens} tokens (${change}), budget ${result.budgetTokens}`,
    removed.length > 0 ? `removed ${removed.join(', ')}` : 'nothing removed, only meaning-preserving edits',
  ];
  if (result.softLimitEnforced) parts.push(result.mode === 'strict' ? 'soft limit: protected content had to go to fit' : 'soft limit: over budget, protected content alone exceeds it');
  return parts.join('; ');
}
