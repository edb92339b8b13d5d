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
 * Callers that run side by side (`runBounded`'s workers) share one: all of
 * them wait for the same turn, and the slice after it is theirs together.
 * Each waiting on a turn of its own, each woke in the same check phase of
 * the loop with a fresh slice: 32 workers held the backend for 32 slices
 * (590 ms in the scale bench's updater pass). `clock` is for tests.
 *
 * @public
 */
export function eventLoopTurns(
  sliceMs = SLICE_MS,
  clock: () => number = () => performance.now(),
): () => Promise<void> {
  let sliceStart = clock();
  let turn: Promise<void> | undefined;
  return () => {
    if (turn) return turn;
    if (clock() - sliceStart < sliceMs) return Promise.resolve();
    turn = nextTurn().then(() => {
      sliceStart = clock();
      turn = undefined;
    });
    return turn;
  };
}

/**
 * The turns every walker of the process shares: readers that run side by
 * side (a re-render's readers of one checkout, two re-renders at once) each
 * with turns of their own each took a slice in the same turn of the loop,
 * together a block of 130 ms and more on the scale bench. Sharing them, all
 * of them together take one slice between two turns.
 *
 * @public
 */
export const processTurns: () => Promise<void> = eventLoopTurns();

/**
 * `items.map(fn)` with a turn of the event loop every slice: for maps over a
 * scale cluster's 89k workloads, each item cheap but all of them together
 * seconds of work.
 */
export async function mapInTurns<T, R>(
  items: Iterable<T>,
  fn: (item: T) => R,
  turn: () => Promise<void> = processTurns,
): Promise<R[]> {
  const mapped: R[] = [];
  for (const item of items) {
    await turn();
    mapped.push(fn(item));
  }
  return mapped;
}

/**
 * `items.filter(keep)` with a turn of the event loop every slice: for the
 * filters over a scale checkout's 131k paths that every reader of a
 * re-render runs (100 ms or more each under load).
 */
export async function filterInTurns<T>(
  items: Iterable<T>,
  keep: (item: T) => boolean,
  turn: () => Promise<void> = processTurns,
): Promise<T[]> {
  const kept: T[] = [];
  for (const item of items) {
    await turn();
    if (keep(item)) kept.push(item);
  }
  return kept;
}

/**
 * `items.some(test)` with a turn of the event loop every slice: for the
 * questions asked of every unrecorded workload of a scale checkout.
 */
export async function someInTurns<T>(
  items: Iterable<T>,
  test: (item: T) => boolean,
  turn: () => Promise<void> = processTurns,
): Promise<boolean> {
  for (const item of items) {
    await turn();
    if (test(item)) return true;
  }
  return false;
}

/**
 * The steps with a turn of the event loop between them when one is due:
 * long synchronous work written once as a generator of its steps runs
 * whole (gpu-common `runSteps`) for the sync APIs, and so in the backend.
 *
 * @public
 */
export async function runStepsInTurns<R>(
  steps: Generator<void, R>,
  turn: () => Promise<void> = processTurns,
): Promise<R> {
  let step = steps.next();
  while (!step.done) {
    await turn();
    step = steps.next();
  }
  return step.value;
}
