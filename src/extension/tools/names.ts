/** Tool names, as in package.json `contributes.languageModelTools` (a unit test checks both agree). */
export const ToolName = {
  Optimize: 'promptOptimizer_optimizePrompt',
  Count: 'promptOptimizer_countTokens',
} as const;
