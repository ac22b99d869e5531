// A purge that runs at start and then every `intervalMs`, one at a time.

/**
 * Runs `purge` now and then every `intervalMs`; the timer never keeps the process alive. The
 * returned stop() waits for a purge in flight, so the database can close after it.
 */
export function startPurge(purge: () => Promise<unknown>, onError: (err: unknown) => void, intervalMs: number): () => Promise<void> {
  let running: Promise<void> = Promise.resolve();
  const run = () => {
    running = running.then(purge).then(() => undefined, onError);
  };
  run();
  const timer = setInterval(run, intervalMs);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}
