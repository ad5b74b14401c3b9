const watchers = new WeakMap<AbortSignal, Set<() => void>>();

/**
 * Calls `onAbort` when `signal` aborts, until the returned function is called. A run passes one
 * signal to every call: Node's EventTarget looks through a signal's listeners on every add and
 * remove, which at hundreds of calls in flight costs more than the call itself. So each signal gets
 * one listener, and the calls waiting on it are a set. The caller checks `signal.aborted` first.
 */
export function watchAbort(signal: AbortSignal, onAbort: () => void): () => void {
  let waiting = watchers.get(signal);
  if (waiting === undefined) {
    const callbacks = new Set<() => void>();
    waiting = callbacks;
    watchers.set(signal, callbacks);
    signal.addEventListener(
      'abort',
      () => {
        for (const callback of [...callbacks]) callback();
        callbacks.clear();
      },
      { once: true },
    );
  }
  const callbacks = waiting;
  callbacks.add(onAbort);
  return () => callbacks.delete(onAbort);
}
