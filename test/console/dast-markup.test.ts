import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { fromMarkup, isMarkupEditable, toMarkup } from '../../console/src/fields/dast-markup.ts';

// The structured-text editor's inline markup: what is typed becomes DAST spans and links,
// and a paragraph it can edit reads back as the same markup.

describe("the console's structured-text markup", () => {
  test('marks, links and escapes become spans and link nodes', () => {
    assert.deepEqual(fromMarkup('a **b** _c_ `d*e` ~~f~~ [g **h**](https://x.test/y) \\_i'), [
      { type: 'span', value: 'a ' },
      { type: 'span', value: 'b', marks: ['strong'] },
      { type: 'span', value: ' ' },
      { type: 'span', value: 'c', marks: ['emphasis'] },
      { type: 'span', value: ' ' },
      { type: 'span', value: 'd*e', marks: ['code'] },
      { type: 'span', value: ' ' },
      { type: 'span', value: 'f', marks: ['strikethrough'] },
      { type: 'span', value: ' ' },
      {
        type: 'link',
        url: 'https://x.test/y',
        children: [
          { type: 'span', value: 'g ' },
          { type: 'span', value: 'h', marks: ['strong'] },
        ],
      },
      { type: 'span', value: ' _i' },
    ]);
  });

  test('editable content reads back as the markup that made it', () => {
    for (const text of [
      'plain',
      '**bold** and _em_ `co*de` ~~gone~~',
      'a [link **x**](https://e.test/a) end',
      'snake\\_case \\* \\[not a link\\]',
    ]) {
      const nodes = fromMarkup(text);
      assert.ok(isMarkupEditable(nodes), text);
      assert.equal(toMarkup(nodes), text);
    }
  });

  test('other marks, code with marks and inline records are not offered for editing', () => {
    assert.equal(isMarkupEditable([{ type: 'span', value: 'x', marks: ['highlight'] }]), false);
    assert.equal(
      isMarkupEditable([{ type: 'span', value: 'x', marks: ['code', 'strong'] }]),
      false,
    );
    assert.equal(isMarkupEditable([{ type: 'inlineItem', item: 'abc' }]), false);
    assert.equal(
      isMarkupEditable([{ type: 'link', url: 'https://e.test', meta: [], children: [] }]),
      false,
    );
  });
});
