import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { DEFAULT_BUDGET, DEFAULT_MODE, DEFAULT_MODEL, KNOWN_MODELS, MODES, validateBudget } from '../../src/core';
import { parseBudgetInput } from '../../src/extension/logic/budget';
import { CONFIG_SECTION } from '../../src/extension/constants';
import { changedAreas, DEFAULTS, readSettings, SENSITIVE_KEYS, SETTING_KEYS } from '../../src/extension/logic/settings';

const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
const properties: Record<string, any> = pkg.contributes.configuration.properties;

describe('extension/logic/settings and package.json', () => {
  it('declares exactly the settings the code reads, with the same defaults', () => {
    assert.deepEqual(Object.keys(properties).sort(), SETTING_KEYS.map((k) => `${CONFIG_SECTION}.${k}`).sort());
    for (const key of SETTING_KEYS) assert.deepEqual(properties[`${CONFIG_SECTION}.${key}`].default, DEFAULTS[key], key);
  });

  it('gives every setting a description, a type and a scope; sensitive ones are user-only', () => {
    for (const [key, schema] of Object.entries(properties)) {
      assert.ok(schema.description || schema.markdownDescription, `${key} has a description`);
      assert.ok(schema.type, `${key} has a type`);
      assert.ok(schema.scope, `${key} has a scope`);
    }
    for (const key of SENSITIVE_KEYS) assert.ok(['application', 'machine'].includes(properties[`${CONFIG_SECTION}.${key}`].scope), key);
  });

  it('agrees with the core: budget, modes and the model list (enum only, the core refuses others)', () => {
    assert.equal(DEFAULTS.budget, String(DEFAULT_BUDGET));
    assert.equal(DEFAULTS.model, DEFAULT_MODEL);
    assert.equal(DEFAULTS.mode, DEFAULT_MODE);
    assert.deepEqual([...properties['promptOptimizer.mode'].enum].sort(), [...MODES].sort());
    const model = properties['promptOptimizer.model'];
    assert.deepEqual(model.enum, KNOWN_MODELS.map((m) => m.model));
    assert.equal(model.enumDescriptions.length, KNOWN_MODELS.length);
  });

  it('budget setting is one type (a string), so the Settings UI draws an input box for it', () => {
    const budget = properties['promptOptimizer.budget'];
    assert.equal(budget.type, 'string');
    assert.equal(typeof budget.default, 'string');
  });

  it('budget setting pattern accepts exactly what the core accepts', () => {
    const pattern = new RegExp(properties['promptOptimizer.budget'].pattern);
    for (const value of ['1000', '500', '1', '50%', '40%', '100%', '12.5%', '.5%', '0.5%', ' 40 % ', '0', '0%', '150%', '101%', 'abc', '40%%', '-1', '1e3', '5.5']) {
      let coreAccepts = true;
      try {
        validateBudget(parseBudgetInput(value));
      } catch {
        coreAccepts = false;
      }
      assert.equal(pattern.test(value), coreAccepts, value);
    }
  });

  it('reads typed values and falls back to defaults for wrong types', () => {
    const { config, problems } = readSettings((key) => ({ budget: '40%', mode: 'strict', model: ' gpt-4 ', engine: 'remote', 'remote.timeoutMs': 5, 'statusBar.enabled': 'yes' } as Record<string, unknown>)[key]);
    assert.equal(config.budget, '40%');
    assert.equal(config.mode, 'strict');
    assert.equal(config.model, 'gpt-4');
    assert.equal(config.engine, 'remote');
    assert.equal(config.remote.timeoutMs, DEFAULTS['remote.timeoutMs']);
    assert.equal(config.statusBar.enabled, true);
    assert.equal(problems.length, 2);
  });

  it('tells which areas a change touches', () => {
    assert.deepEqual(changedAreas((key) => key === 'model'), { statusBar: true, engine: false, any: true });
    assert.deepEqual(changedAreas((key) => key === 'remote.baseUrl'), { statusBar: false, engine: true, any: true });
    assert.deepEqual(changedAreas(() => false), { statusBar: false, engine: false, any: false });
  });
});
