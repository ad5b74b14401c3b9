import { describe, expect, it } from 'vitest';
import { markdownBlocks } from './markdown-blocks.js';

describe('markdownBlocks', () => {
  it('reads headings, paragraphs, lists and emphasis as plain text spans', () => {
    expect(markdownBlocks('## Before you start\n\nYou talk with an **AI system**,\nnot a *person*.\n\n- one\n- two\n  continued\n1. three')).toEqual([
      { kind: 'heading', spans: [{ text: 'Before you start' }] },
      {
        kind: 'paragraph',
        spans: [{ text: 'You talk with an ' }, { text: 'AI system', style: 'strong' }, { text: ', not a ' }, { text: 'person', style: 'em' }, { text: '.' }],
      },
      { kind: 'list', items: [[{ text: 'one' }], [{ text: 'two continued' }], [{ text: 'three' }]] },
    ]);
  });

  it('keeps raw HTML as the characters it is, and shows a link as its text and address, not as something to click', () => {
    expect(markdownBlocks('<script>alert(1)</script> see [the board](javascript:alert(2))')).toEqual([
      { kind: 'paragraph', spans: [{ text: '<script>alert(1)</script> see the board (javascript:alert(2))' }] },
    ]);
    expect(markdownBlocks('Contact [us](https://example.org/study).')).toEqual([
      { kind: 'paragraph', spans: [{ text: 'Contact us (https://example.org/study).' }] },
    ]);
  });
});
