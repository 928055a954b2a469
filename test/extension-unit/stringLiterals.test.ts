import * as assert from 'node:assert/strict';
import { literalBody, literalCodec } from '../../src/extension/logic/literalCodec';
import { findStringLiteral, literalFamily, type LiteralFamily } from '../../src/extension/logic/stringLiterals';

/** The literal at the `|` in `code` (the bar is removed first). */
function at(code: string, family: LiteralFamily) {
  const offset = code.indexOf('|');
  const text = code.slice(0, offset) + code.slice(offset + 1);
  const literal = findStringLiteral(text, offset, family);
  return literal && { ...literal, source: text.slice(literal.start, literal.end), text };
}

describe('extension/logic/stringLiterals: the literal at the cursor', () => {
  it('maps languages to families', () => {
    assert.equal(literalFamily('typescriptreact'), 'js');
    assert.equal(literalFamily('python'), 'python');
    assert.equal(literalFamily('markdown'), undefined);
  });

  it('finds TypeScript quotes and template literals, the innermost one inside ${…}', () => {
    assert.equal(at("const a = 'Be |brief.';", 'js')?.source, 'Be brief.');
    assert.equal(at('const a = "say \\"hi|\\"";', 'js')?.source, 'say \\"hi\\"');
    const outer = at('const p = `Hello ${name}, |please ${fmt("x")} now`;', 'js');
    assert.equal(outer?.kind, 'template');
    assert.equal(outer?.source, 'Hello ${name}, please ${fmt("x")} now');
    assert.equal(at('const p = `a ${fmt("in|ner")} b`;', 'js')?.source, 'inner');
  });

  it('ignores quotes in comments and outside literals', () => {
    assert.equal(at("// don't |stop\nconst a = 1;", 'js'), undefined);
    assert.equal(at("/* it's */ const a = 'x'; f(|);", 'js'), undefined);
    assert.equal(at("# it's a |comment\nx = 'y'", 'python'), undefined);
  });

  it('finds Python triple quotes with any prefix, and knows raw strings', () => {
    const doc = at('PROMPT = f"""\\\nYou are a |helpful {role}.\n"""\n', 'python');
    assert.equal(doc?.kind, 'triple-double');
    assert.equal(doc?.raw, false);
    assert.equal(doc?.source, '\\\nYou are a helpful {role}.\n');
    assert.equal(at("x = r'''C:\\new |path'''", 'python')?.raw, true);
    assert.equal(at("x = 'it\\'s |fine'", 'python')?.source, "it\\'s fine");
  });
});

describe('extension/logic/literalCodec: value and back, escapes as they were', () => {
  const cases: [string, string, LiteralFamily, string][] = [
    ['js single quotes', "const a = 'Don\\'t |stop.\\nNext line: \\u00e9t\\u00e9 \\\\ done';", 'js', "Don't stop.\nNext line: été \\ done"],
    ['js template', 'const a = `Line one ${x}\n|Line \\`two\\` and \\${literal}`;', 'js', 'Line one ${x}\nLine `two` and \uE000{literal}'],
    ['python triple', 'P = """\\\nSay \\"hi\\" to |{name}.\nUse \\d+ here.\n"""', 'python', '\uE001Say "hi" to {name}.\nUse \uE002d+ here.\n'],
    ['python raw', "P = r'''\\d+ |'''", 'python', '\\d+ '],
  ];
  for (const [name, code, family, value] of cases) {
    it(`${name}: decodes, and encodes the same value back to the same source`, () => {
      const literal = at(code, family)!;
      const codec = literalCodec(literal, literal.source);
      assert.equal(codec.value, value);
      assert.equal(codec.encode(codec.value), literal.source);
    });
  }

  it('a template keeps ${…} and escaped backticks and dollars', () => {
    const source = 'Hi ${user.name}, use \\`code\\` and \\${not} here';
    const literal = { family: 'js', kind: 'template', raw: false, start: 0, end: source.length } as const;
    const codec = literalCodec(literal, source);
    assert.equal(codec.value, 'Hi ${user.name}, use `code` and \uE000{not} here');
    assert.equal(codec.encode('Hi ${user.name}, use `code` here'), 'Hi ${user.name}, use \\`code\\` here');
  });

  it('escapes what this kind of literal needs, and nothing the source wrote raw', () => {
    const single = { family: 'js', kind: 'single', raw: false, start: 0, end: 0 } as const;
    assert.equal(literalCodec(single, 'x').encode("it's\na \\ b"), "it\\'s\\na \\\\ b");
    const triple = { family: 'python', kind: 'triple-double', raw: false, start: 0, end: 0 } as const;
    assert.equal(literalCodec(triple, 'a "quoted" word\n').encode('say "hi"\nend"'), 'say "hi"\nend\\"');
    assert.equal(literalCodec(triple, 'x').encode('a """ b'), 'a \\""" b');
    const template = { family: 'js', kind: 'template', raw: false, start: 0, end: 0 } as const;
    assert.equal(literalCodec(template, 'one\\ntwo').encode('one\nthree'), 'one\\nthree', 'written as \\n like the source');
    assert.equal(literalCodec(template, 'one\ntwo').encode('one\nthree'), 'one\nthree');
  });

  it('the body leaves out the frame of a multi-line prompt', () => {
    const source = '\\\n    You are a reviewer.\n    Be brief.\n    ';
    const { start, end } = literalBody(source);
    assert.equal(source.slice(start, end), 'You are a reviewer.\n    Be brief.');
    assert.deepEqual(literalBody('plain'), { start: 0, end: 5 });
  });
});
