import { strict as assert } from 'node:assert';
import { cleanup } from '../../../src/core/passes/cleanup';
import { through } from '../helpers';

describe('core/passes/cleanup', () => {
  const clean = (text: string) => through(text, [cleanup]);

  it('collapses runs of spaces and trailing spaces in prose', () => {
    assert.equal(clean('Too   many    spaces.   \nNext line.  '), 'Too many spaces.\nNext line.');
  });

  it('keeps at most one blank line between blocks', () => {
    assert.equal(clean('One.\n\n\n\n\nTwo.'), 'One.\n\nTwo.');
    assert.equal(clean('One.\r\n\r\n\r\n\r\nTwo.'), 'One.\r\n\r\nTwo.');
  });

  it('never touches protected blocks or spans', () => {
    const code = '```\nx  =  1   \n\n\n\ny = 2\n```';
    assert.equal(clean(`Text   here.\n\n${code}`), `Text here.\n\n${code}`);
    assert.equal(clean('Keep "two  spaces" here.'), 'Keep "two  spaces" here.');
  });

  it('keeps the spaces a quoted test input opens or closes with: "  1D " is not " 1D "', () => {
    // Before, both lost a space at 100%: the quote does not read as a literal when it opens on a space.
    assert.equal(clean('- "  1D " (whitespace and uppercase) → 86400.0\n- "" and "   " → ValueError'), '- "  1D " (whitespace and uppercase) → 86400.0\n- "" and "   " → ValueError');
    assert.equal(clean("Strip '  x' to 'x'."), "Strip '  x' to 'x'.");
  });

  it('keeps the spacing of quoted material: columns of a document line up', () => {
    const document = 'Invoice No: CF-2024-08817          Invoice Date: 14/03/2024\nA4 paper, 5 reams    £18.45';
    assert.equal(clean(`Extract the invoice   fields.\n\n<document>\n${document}\n</document>`), `Extract the invoice fields.\n\n<document>\n${document}\n</document>`);
  });
});
