/**
 * The extension's settings as one typed, readonly object. `SETTING_KEYS` mirrors
 * `contributes.configuration` in package.json (a unit test checks both ways), and `readSettings` is the
 * only place raw values are turned into typed ones.
 */
import type { ApiVariant } from './remote';
import type { BudgetValue } from './budget';

export type Mode = 'relaxed' | 'strict';
export type EngineKind = 'local' | 'remote';

export interface ExtensionConfig {
  readonly budget: BudgetValue;
  readonly mode: Mode;
  readonly model: string;
  readonly task: string;
  readonly engine: EngineKind;
  readonly remote: {
    readonly baseUrl: string;
    readonly apiVariant: ApiVariant;
    readonly timeoutMs: number;
    readonly fallbackToLocal: boolean;
  };
  readonly statusBar: { readonly enabled: boolean; readonly languages: readonly string[]; readonly promptFileLimit: number };
}

/** Every setting under `promptOptimizer.`, with its default (the same as in package.json). */
export const DEFAULTS = {
  budget: '1000',
  mode: 'relaxed',
  model: 'gpt-4o',
  task: '',
  engine: 'local',
  'remote.baseUrl': '',
  'remote.apiVariant': 'B',
  'remote.timeoutMs': 30_000,
  'remote.fallbackToLocal': true,
  'statusBar.enabled': true,
  'statusBar.languages': ['markdown', 'plaintext', 'prompt', 'instructions', 'chatmode'],
  'statusBar.promptFileLimit': 2000,
} as const satisfies Record<string, unknown>;

export type SettingKey = keyof typeof DEFAULTS;
export const SETTING_KEYS = Object.keys(DEFAULTS) as SettingKey[];

/** Settings that decide where prompts are sent: only user (application) scope may set them. */
export const SENSITIVE_KEYS: readonly SettingKey[] = ['engine', 'remote.baseUrl', 'remote.apiVariant', 'remote.timeoutMs', 'remote.fallbackToLocal'];

export const MIN_TIMEOUT_MS = 1000;
export const MAX_TIMEOUT_MS = 600_000;

/**
 * Reads every setting through `get` (a typed wrapper of `WorkspaceConfiguration.get`), falling back to
 * the default for a value of the wrong type and saying so in `problems`. The budget's own rules are
 * checked later by the core, which owns them.
 */
export function readSettings(get: (key: SettingKey) => unknown): { config: ExtensionConfig; problems: string[] } {
  const problems: string[] = [];
  const pick = <T>(key: SettingKey, ok: (value: unknown) => value is T): T => {
    const value = get(key);
    if (value === undefined || value === null) return DEFAULTS[key] as T;
    if (ok(value)) return value;
    problems.push(`Setting promptOptimizer.${key} has an invalid value ${JSON.stringify(value)}; using ${JSON.stringify(DEFAULTS[key])}.`);
    return DEFAULTS[key] as T;
  };
  const isString = (v: unknown): v is string => typeof v === 'string';
  const isBoolean = (v: unknown): v is boolean => typeof v === 'boolean';
  // A string in package.json (one type, so the Settings UI draws a box); a number from older settings still works.
  const isBudget = (v: unknown): v is BudgetValue => (typeof v === 'number' && Number.isFinite(v)) || typeof v === 'string';
  const isMode = (v: unknown): v is Mode => v === 'relaxed' || v === 'strict';
  const isEngine = (v: unknown): v is EngineKind => v === 'local' || v === 'remote';
  const isVariant = (v: unknown): v is ApiVariant => v === 'A' || v === 'B';
  const isModel = (v: unknown): v is string => typeof v === 'string' && v.trim() !== '';
  const isLanguages = (v: unknown): v is readonly string[] => Array.isArray(v) && v.every((item) => typeof item === 'string');
  const isLimit = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 0;
  const isTimeout = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= MIN_TIMEOUT_MS && v <= MAX_TIMEOUT_MS;

  const config: ExtensionConfig = {
    budget: pick('budget', isBudget),
    mode: pick('mode', isMode),
    model: pick('model', isModel).trim(),
    task: pick('task', isString),
    engine: pick('engine', isEngine),
    remote: {
      baseUrl: pick('remote.baseUrl', isString).trim(),
      apiVariant: pick('remote.apiVariant', isVariant),
      timeoutMs: pick('remote.timeoutMs', isTimeout),
      fallbackToLocal: pick('remote.fallbackToLocal', isBoolean),
    },
    statusBar: {
      enabled: pick('statusBar.enabled', isBoolean),
      languages: pick('statusBar.languages', isLanguages),
      promptFileLimit: pick('statusBar.promptFileLimit', isLimit),
    },
  };
  return { config, problems };
}

/** Which parts of the extension a change touches, so listeners rebuild only what they must. */
export function changedAreas(affects: (key: string) => boolean): { statusBar: boolean; engine: boolean; any: boolean } {
  const statusBar = ['statusBar.enabled', 'statusBar.languages', 'statusBar.promptFileLimit', 'model', 'budget'].some((key) => affects(key));
  const engine = SENSITIVE_KEYS.some((key) => affects(key));
  return { statusBar, engine, any: SETTING_KEYS.some((key) => affects(key)) };
}
