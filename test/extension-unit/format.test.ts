import * as assert from 'node:assert/strict';
import { formatBudget, formatChange, formatCount, formatDiffTitle, formatStatusAccessibility, formatStatusText, formatStatusTooltip, type CountDisplay } from '../../src/extension/logic/format';

describe('extension/logic/format', () => {
  it('groups thousands the same way everywhere', () => {
    assert.equal(formatCount(0), '0');
    assert.equal(formatCount(1234), '1,234');
    assert.equal(formatCount(1234567), '1,234,567');
  });

  it('formats the change with a real minus sign and one decimal', () => {
    assert.equal(formatChange(1234, 567), '\u221254.1%');
    assert.equal(formatChange(100, 103), '+3.0%');
    assert.equal(formatChange(100, 100), '0.0%');
    assert.equal(formatChange(0, 0), '0.0%');
    assert.equal(formatChange(100000, 99999), '0.0%');
  });

  it('titles the diff like "Prompt: 1,234 → 567 tokens (−54.1%)"', () => {
    assert.equal(formatDiffTitle({ originalTokens: 1234, optimizedTokens: 567, budgetTokens: 600, softLimitEnforced: false }), 'Prompt: 1,234 \u2192 567 tokens (\u221254.1%)');
    assert.equal(formatDiffTitle({ originalTokens: 2, optimizedTokens: 1, softLimitEnforced: false }), 'Prompt: 2 \u2192 1 token (\u221250.0%)');
  });

  it('says the soft-limit case in words', () => {
    assert.equal(
      formatDiffTitle({ originalTokens: 1234, optimizedTokens: 900, budgetTokens: 500, softLimitEnforced: true }),
      'Prompt: 1,234 \u2192 900 tokens (\u221227.1%), over the 500-token budget',
    );
    assert.match(formatDiffTitle({ originalTokens: 1234, optimizedTokens: 400, budgetTokens: 500, softLimitEnforced: true }), /dropping protected content$/);
    assert.match(formatDiffTitle({ originalTokens: 10, optimizedTokens: 9, softLimitEnforced: true }), /budget not met$/);
  });

  const display: CountDisplay = { tokens: 1234, estimated: false, characters: 5000, model: 'gpt-4o', encoding: 'o200k_base', budget: 1000, selections: 0 };

  it('shows the document count, the selection "of" the document, and ≈ for estimates', () => {
    assert.equal(formatStatusText(display), '$(symbol-numeric) 1,234 tokens');
    assert.equal(formatStatusText({ ...display, tokens: 87, documentTokens: 1234, selections: 1 }), '$(symbol-numeric) 87 of 1,234 tokens');
    assert.equal(formatStatusText({ ...display, tokens: 1250000, estimated: true }), '$(symbol-numeric) \u22481,250,000 tokens');
    assert.equal(formatStatusText({ ...display, tokens: 1 }), '$(symbol-numeric) 1 token');
  });

  it('puts model, encoding, characters, tokens and budget in the tooltip', () => {
    const tooltip = formatStatusTooltip({ ...display, tokens: 87, documentTokens: 1234, selections: 2, budget: '40%' });
    assert.match(tooltip, /Optimize Prompt uses the primary selection only\./);
    assert.doesNotMatch(formatStatusTooltip({ ...display, tokens: 87, documentTokens: 1234, selections: 1 }), /primary selection/);
    for (const line of ['2 selections', 'Model: gpt-4o', 'Encoding: o200k_base', 'Characters: 5,000', 'Tokens: 87 (document: 1,234)', 'Budget: 40% of the original']) {
      assert.ok(tooltip.includes(line), `${line} in ${tooltip}`);
    }
    assert.match(formatStatusTooltip({ ...display, estimated: true }), /Estimated/);
    assert.equal(formatStatusAccessibility(display), '1,234 tokens for gpt-4o. Budget 1,000 tokens.');
  });

  it('describes budgets', () => {
    assert.equal(formatBudget(1000), '1,000 tokens');
    assert.equal(formatBudget('500'), '500 tokens');
    assert.equal(formatBudget(' 40% '), '40% of the original');
  });
});
