/**
 * Resolves once the current turn of the event loop has run its I/O callbacks (in the check
 * phase, after them): what every answer solved in this turn awaits before it is journalled and
 * written, so that the turn's solves run back to back and then its writes do. One timer a turn
 * serves every waiter.
 */
let pending: Promise<void> | null = null;

export function turnEnd(): Promise<void> {
  return (pending ??= new Promise((resolve) =>
    setImmediate(() => {
      pending = null;
      resolve();
    }),
  ));
}
