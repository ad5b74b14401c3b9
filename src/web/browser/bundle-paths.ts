/* Where a static bundle keeps a conversation's data: plain code, no DOM (a test checks it against the writer's). */

/** A conversation's data file, as src/web/view-bundle.ts `bundleConversationFile` names it. */
export function conversationFile(id: string): string {
  const name = /^[a-z0-9_-]{1,64}$/.test(id) ? id : `~${textHash(id)}`;
  return `conversations/${name.slice(-2)}/${name}.js`;
}

/** Two 32-bit FNV-1a hashes of the UTF-16 code units, as 16 hex digits (as view-bundle.ts). */
function textHash(text: string): string {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ 0x5bd1e995;
  for (let index = 0; index < text.length; index++) {
    const unit = text.charCodeAt(index);
    a = Math.imul(a ^ unit, 0x01000193) >>> 0;
    b = Math.imul(b ^ unit, 0x01000193) >>> 0;
    b = (b ^ (b >>> 15)) >>> 0;
  }
  return a.toString(16).padStart(8, '0') + b.toString(16).padStart(8, '0');
}
