/**
 * A signal that aborts when any of the given ones does, with that one's reason. Unlike
 * `AbortSignal.any`, it lets go of its parents when disposed, so that a long run creating one per
 * call keeps nothing alive.
 */
export function linkSignals(...signals: ReadonlyArray<AbortSignal | undefined>): { readonly signal?: AbortSignal; dispose(): void } {
  const present = signals.filter((signal): signal is AbortSignal => signal !== undefined);
  if (present.length <= 1) return { ...(present[0] ? { signal: present[0] } : {}), dispose: () => {} };
  const controller = new AbortController();
  const aborted = present.find((signal) => signal.aborted);
  if (aborted) {
    controller.abort(aborted.reason);
    return { signal: controller.signal, dispose: () => {} };
  }
  const listeners = present.map((signal) => {
    const onAbort = () => controller.abort(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    return () => signal.removeEventListener('abort', onAbort);
  });
  return {
    signal: controller.signal,
    dispose: () => {
      for (const remove of listeners) remove();
    },
  };
}
