import { setImmediate as nextTurn } from 'node:timers/promises';

/** Work between two turns of the event loop, at most (the backend answers its API meanwhile). */
const SLICE_MS = 15;

/**
 * A long synchronous walk (parsing a 100k-file tree) cut into slices: call
 * the returned function between items, and every `sliceMs` of work it gives
 * the event loop a turn (`setImmediate`), so one walk never blocks the
 * backend for more than a slice. The allocation index's parse loops use it
 * too: their turns also let Node drain `git cat-file --batch`'s pipe, so git
 * reads the next batch while the index parses.
 *
 * @public
 */
export function eventLoopTurns(sliceMs = SLICE_MS): () => Promise<void> {
  let sliceStart = performance.now();
  return async () => {
    if (performance.now() - sliceStart < sliceMs) return;
    await nextTurn();
    sliceStart = performance.now();
  };
}
