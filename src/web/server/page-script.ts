import { readFile } from 'node:fs/promises';

/** The pages whose browser code the build bundles (rolldown.config.mjs): src/web/<product>/browser/<name>.ts. */
export type PageScriptName = 'view-app' | 'annotation-app' | 'people-app';

/**
 * Where the build writes a page's script (dist/web/browser/<name>.js), from each place this module
 * runs: src/web/server (the tests, after `npm run build`) and dist/web/server (the library), three
 * folders below the package root, and dist/cli (the bundled CLI, whose chunks all sit there), two
 * below it, as for package.json in docs/design/bundled-cli.md.
 */
function scriptUrl(name: PageScriptName): URL {
  const root = /\/dist\/cli\/[^/]+$/.test(new URL(import.meta.url).pathname) ? '../../' : '../../../';
  return new URL(`${root}dist/web/browser/${name}.js`, import.meta.url);
}

/**
 * A page's built script, to send inline under the page's nonce. It is read once per server. Text
 * that would end the inline script early (`</script`) or change how the HTML parser reads it
 * (`<!--`) is refused: no escaping could make a bundle safe to splice without changing its code.
 */
export async function loadPageScript(name: PageScriptName): Promise<string> {
  const url = scriptUrl(name);
  let text: string;
  try {
    text = await readFile(url, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    throw new Error(`the page script ${url.pathname} is missing: run npm run build in a checkout of pmiyc, or reinstall the package`);
  }
  checkInlineScript(name, text);
  return text;
}

/** Throws when `text` could not be sent as the body of an inline `<script>` element unchanged. */
export function checkInlineScript(name: string, text: string): void {
  const found = /<\/script|<!--/i.exec(text);
  if (found) throw new Error(`the page script ${name} holds "${found[0]}", which would break out of its inline <script>: write it another way`);
}
