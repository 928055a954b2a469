import { OptimizeError } from './errors';

export type EncodingName = 'o200k_base' | 'cl100k_base';

export const DEFAULT_MODEL = 'gpt-4o';

/** Models offered in pickers and settings, with the encoding each one counts with. */
export const KNOWN_MODELS: readonly { model: string; encoding: EncodingName; description: string }[] = [
  { model: 'gpt-4o', encoding: 'o200k_base', description: 'GPT-4o (o200k_base)' },
  { model: 'gpt-4o-mini', encoding: 'o200k_base', description: 'GPT-4o mini (o200k_base)' },
  { model: 'gpt-4.1', encoding: 'o200k_base', description: 'GPT-4.1 family (o200k_base)' },
  { model: 'gpt-5', encoding: 'o200k_base', description: 'GPT-5 family (o200k_base)' },
  { model: 'o1', encoding: 'o200k_base', description: 'o1 reasoning models (o200k_base)' },
  { model: 'o3', encoding: 'o200k_base', description: 'o3 reasoning models (o200k_base)' },
  { model: 'o4-mini', encoding: 'o200k_base', description: 'o4 reasoning models (o200k_base)' },
  { model: 'gpt-4', encoding: 'cl100k_base', description: 'GPT-4 (cl100k_base)' },
  { model: 'gpt-4-turbo', encoding: 'cl100k_base', description: 'GPT-4 Turbo (cl100k_base)' },
  { model: 'gpt-3.5-turbo', encoding: 'cl100k_base', description: 'GPT-3.5 Turbo (cl100k_base)' },
];

// Families matched by prefix, most specific first: `gpt-4o*` and `gpt-4.1*` must win over `gpt-4*`.
const FAMILIES: readonly [RegExp, EncodingName][] = [
  [/^gpt-4o(-|$)/, 'o200k_base'],
  [/^gpt-4\.1(-|$)/, 'o200k_base'],
  [/^gpt-5([.-]|$)/, 'o200k_base'],
  [/^o[134](-|$)/, 'o200k_base'],
  [/^gpt-4-turbo(-|$)/, 'cl100k_base'],
  [/^gpt-4(-\d{4}|-32k|$)/, 'cl100k_base'],
  [/^gpt-3\.5-turbo(-|$)/, 'cl100k_base'],
];

/**
 * The encoding a model counts with. Unknown models are refused rather than guessed, so a count is
 * never silently approximate.
 */
export function encodingForModel(model: string): EncodingName {
  const name = model.trim().toLowerCase();
  for (const [pattern, encoding] of FAMILIES) if (pattern.test(name)) return encoding;
  throw new OptimizeError(
    'model_unsupported',
    'model',
    `Unsupported model "${model}". Supported: ${KNOWN_MODELS.map((m) => m.model).join(', ')} and their dated or suffixed variants (gpt-4o-*, gpt-4.1-*, gpt-5*, o1*, o3*, o4*).`,
  );
}
