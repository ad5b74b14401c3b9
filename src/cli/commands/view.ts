import { untilStopped } from '../../io/graceful-stop.js';
import { openInBrowser } from '../../io/open-browser.js';
import { thisProcess } from '../../io/process-world.js';
import { openStore } from '../../store/result-store.js';
import { ViewServer } from '../../web/view-server.js';
import type { CliContext } from '../terminal.js';

export interface ViewOptions {
  readonly store: string;
  readonly port: number;
  /** Open the desktop's browser at the viewer (--no-open: only print the address). */
  readonly open: boolean;
}

/**
 * `pmiyc view`: the store's runs, conversations and comparisons in a browser, served on 127.0.0.1
 * until Ctrl-C. The store is opened read-only, so a run can write to it at the same time (its pages
 * refresh while it is live); with nothing to save, a signal ends it at once.
 */
export async function viewCommand(options: ViewOptions, context: CliContext, stop: AbortSignal): Promise<number> {
  const store = openStore(options.store, { access: 'read' });
  try {
    const server = await ViewServer.start({ source: store, port: options.port, world: () => ({ ...thisProcess(), nowMs: context.now().getTime() }) });
    context.stdout.write(`Viewing ${store.path} at ${server.url} (read-only). Press Ctrl-C to stop.\n`);
    if (options.open && !(await openInBrowser(server.url))) context.stdout.write(`No browser could be opened here: open ${server.url} on this machine.\n`);
    await untilStopped(stop);
    await server.close();
    return 0;
  } finally {
    store.close();
  }
}
