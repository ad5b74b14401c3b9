import { describe, expect, it } from 'vitest';
import { printableText, shownText, visibleBidiControls } from './printable-text.js';

const ESC = '\u001b';
const BEL = '\u0007';

describe('printableText', () => {
  it.each([
    ['a window title (OSC 0, ended by BEL)', `failed ${ESC}]0;pwned${BEL}here`, 'failed here'],
    ['a clipboard write (OSC 52, ended by ESC \\)', `a${ESC}]52;c;aGVsbG8=${ESC}\\b`, 'ab'],
    ['an OSC 8 hyperlink around text', `see ${ESC}]8;;https://evil.example${ESC}\\docs${ESC}]8;;${ESC}\\ now`, 'see docs now'],
    ['an OSC without its terminator, to the end', `a${ESC}]0;title and more`, 'a'],
    ['an OSC without its terminator, up to the next escape', `a${ESC}]0;title${ESC}[1mb`, 'ab'],
    ['a screen clear and cursor home (CSI)', `${ESC}[2J${ESC}[Hgone`, 'gone'],
    ['colours with parameters', `${ESC}[38;5;196mred${ESC}[0m`, 'red'],
    ['a private-mode CSI (the alternate screen)', `${ESC}[?1049hx`, 'x'],
    ['a device control string', `${ESC}Pq#0;2;0;0;0${ESC}\\after`, 'after'],
    ['a reset and a charset switch', `${ESC}c${ESC}(Bok`, 'ok'],
    ['8-bit CSI and OSC', '\u009b2Ja\u009d0;t\u0007b', 'ab'],
    ['a lone ESC at the end', `end${ESC}`, 'end'],
    ['carriage returns, backspaces, NUL, DEL and C1', 'a\rb\bc\u0000d\u007fe\u0085f', 'abcdef'],
  ])('removes %s', (_what, text, printable) => {
    expect(printableText(text)).toBe(printable);
  });

  it('keeps line feeds, tabs and any other text, emoji and accents included', () => {
    const text = 'line one\n\tline two: «ça marche» 🙂 [2J ]0; are plain text';
    expect(printableText(text)).toBe(text);
  });

  it('leaves no ESC, no C0 but tab and line feed, no DEL and no C1 whatever the input', () => {
    const everything = Array.from({ length: 0xa0 }, (_, code) => String.fromCharCode(code)).join('');
    // biome-ignore lint/suspicious/noControlCharactersInRegex: the test is that none are left
    expect(printableText(`${everything}${ESC}]0;x${everything}`)).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
  });
});

describe('visibleBidiControls and shownText', () => {
  it('shows every bidirectional control as its code point, so that none reorders the text around it', () => {
    // As written: "pay 100 to alice"; U+202E would show what follows it right to left ("ecila ot 001 yap").
    expect(visibleBidiControls('pay \u202E100 to alice\u202C ok')).toBe('pay [U+202E]100 to alice[U+202C] ok');
    const controls = ['\u061C', '\u200E', '\u200F', '\u202A', '\u202B', '\u202C', '\u202D', '\u202E', '\u2066', '\u2067', '\u2068', '\u2069'];
    expect(visibleBidiControls(controls.join(''))).toBe('[U+061C][U+200E][U+200F][U+202A][U+202B][U+202C][U+202D][U+202E][U+2066][U+2067][U+2068][U+2069]');
  });

  it('leaves right-to-left writing and every other text as it is', () => {
    const text = 'שלום עולם, مرحبا بالعالم, «ça marche» 🙂 and a zero\u200Bwidth space';
    expect(visibleBidiControls(text)).toBe(text);
  });

  it('shownText removes terminal escapes and shows bidirectional controls', () => {
    expect(shownText('a\u001b[2Jb\u202Ec')).toBe('ab[U+202E]c');
  });
});
