/**
 * The Markdown of an experiment's texts as plain blocks, which a page builds with text nodes only:
 * headings, paragraphs, lists, and **strong** / *emphasis* spans. Raw HTML is kept as the characters
 * it is made of; links are shown as their text followed by their address, never as something to click.
 */
export type TextSpan = { readonly text: string; readonly style?: 'strong' | 'em' };

export type TextBlock =
  | { readonly kind: 'heading'; readonly spans: readonly TextSpan[] }
  | { readonly kind: 'paragraph'; readonly spans: readonly TextSpan[] }
  | { readonly kind: 'list'; readonly items: ReadonlyArray<readonly TextSpan[]> };

const LINK = /\[([^\]]*)\]\(([^)\s]*)\)/g;
const EMPHASIS = /(\*\*|__)(.+?)\1|(\*|_)(.+?)\3/g;

function spansOf(line: string): TextSpan[] {
  const text = line.replace(LINK, (_all, label: string, address: string) => (address === '' ? label : `${label} (${address})`));
  const spans: TextSpan[] = [];
  let at = 0;
  for (const match of text.matchAll(EMPHASIS)) {
    if (match.index > at) spans.push({ text: text.slice(at, match.index) });
    spans.push(match[2] === undefined ? { text: match[4]!, style: 'em' } : { text: match[2], style: 'strong' });
    at = match.index + match[0].length;
  }
  if (at < text.length) spans.push({ text: text.slice(at) });
  return spans;
}

/** Splits Markdown into blocks: blank lines end a paragraph or a list; `#` starts a heading; `-`, `*` or `1.` an item. */
export function markdownBlocks(markdown: string): TextBlock[] {
  const blocks: TextBlock[] = [];
  let paragraph: string[] = [];
  let items: string[] = [];
  const flush = () => {
    if (paragraph.length > 0) blocks.push({ kind: 'paragraph', spans: spansOf(paragraph.join(' ')) });
    if (items.length > 0) blocks.push({ kind: 'list', items: items.map(spansOf) });
    paragraph = [];
    items = [];
  };
  for (const raw of markdown.split(/\r?\n/)) {
    const line = raw.trim();
    const heading = /^#{1,6}\s+(.*)$/.exec(line);
    const item = /^(?:[-*+]|\d+[.)])\s+(.*)$/.exec(line);
    if (line === '') flush();
    else if (heading) {
      flush();
      blocks.push({ kind: 'heading', spans: spansOf(heading[1]!) });
    } else if (item) {
      if (paragraph.length > 0) flush();
      items.push(item[1]!);
    } else if (items.length > 0) items[items.length - 1] += ` ${line}`;
    else paragraph.push(line);
  }
  flush();
  return blocks;
}
