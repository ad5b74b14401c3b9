import { describe, expect, it } from 'vitest';
import { visibleBidiControls } from '../domain/printable-text.js';
import { visibleBidiControls as pageVisibleBidiControls } from './browser/bidi-text.js';

describe("the pages' visibleBidiControls", () => {
  it('shows every character of the Basic Multilingual Plane as the domain helper does', () => {
    const differing: string[] = [];
    for (let codePoint = 0; codePoint <= 0xffff; codePoint++) {
      if (codePoint >= 0xd800 && codePoint <= 0xdfff) continue;
      const text = `a${String.fromCodePoint(codePoint)}b`;
      if (pageVisibleBidiControls(text) !== visibleBidiControls(text)) differing.push(codePoint.toString(16));
    }
    expect(differing).toEqual([]);
    expect(pageVisibleBidiControls('x\u202Ey')).toBe('x[U+202E]y');
  });
});
