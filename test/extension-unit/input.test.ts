import * as assert from 'node:assert/strict';
import { emptyProposalMessage, severalSelectionsNote, checkInput, looksBinary, readonlyReason } from '../../src/extension/logic/input';

describe('extension/logic/input', () => {
  const check = (text: string, isSelection = true) => checkInput({ text, isSelection, maxChars: 100 });

  it('accepts ordinary text', () => assert.equal(check('Summarize this.'), undefined));
  it('explains empty, whitespace-only, binary and huge input', () => {
    assert.equal(check('')?.kind, 'empty');
    assert.equal(check(' \n\t ')?.kind, 'whitespace');
    assert.match(check(' \n\t ')?.message ?? '', /^The selection contains only whitespace/);
    assert.equal(check('abc\u0000def', false)?.kind, 'binary');
    const huge = check('x'.repeat(101), false);
    assert.equal(huge?.kind, 'too_large');
    assert.match(huge?.message ?? '', /^The document has 101 characters; .* up to 100\./);
  });
  it('detects NUL characters only', () => {
    assert.equal(looksBinary('plain'), false);
    assert.equal(looksBinary('a\u0000'), true);
  });
  it('refuses read-only documents and our own proposals', () => {
    assert.equal(readonlyReason('file', true, 'prompt-optimizer'), undefined);
    assert.equal(readonlyReason('untitled', undefined, 'prompt-optimizer'), undefined);
    assert.match(readonlyReason('prompt-optimizer', undefined, 'prompt-optimizer') ?? '', /proposal/);
    assert.match(readonlyReason('output', undefined, 'prompt-optimizer') ?? '', /read-only/);
    assert.match(readonlyReason('file', false, 'prompt-optimizer') ?? '', /read-only/);
  });

  it('explains an empty proposal: why, and what to do in each mode', () => {
    assert.match(emptyProposalMessage(3, 'strict'), /fits the budget of 3 tokens: it is smaller than any whole sentence.*switch promptOptimizer\.mode to relaxed/);
    assert.match(emptyProposalMessage(1, 'relaxed'), /budget of 1 token:.*Raise the budget\. The text is unchanged\.$/);
  });

  it('says which of several selections is optimized', () => {
    assert.equal(severalSelectionsNote(2, 3, 5), 'Prompt Optimizer optimizes one selection at a time: the primary one (lines 3\u20135). The other selection is left as it is.');
    assert.match(severalSelectionsNote(4, 7, 7), /the primary one \(line 7\)\. The other 3 selections are left as they are\.$/);
  });
});
