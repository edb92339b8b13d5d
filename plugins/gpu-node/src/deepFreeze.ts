import { runSteps } from '@gpu-gitops/plugin-gpu-common';
import { processTurns } from './repo/eventLoopTurns';

/**
 * The walk both freezes share: freezes `value` and everything it holds,
 * depth first, yielding after each object it froze (the in-turns freeze
 * looks at the clock between yields). An object already frozen is taken as
 * frozen through: the values this package freezes are frozen here, or are
 * constants frozen by hand to the bottom.
 */
function* freezeSteps(value: unknown): Generator<void> {
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const next = pending.pop();
    if (typeof next !== 'object' || next === null || Object.isFrozen(next)) {
      continue;
    }
    Object.freeze(next);
    for (const child of Object.values(next)) pending.push(child);
    yield;
  }
}

/**
 * Freezes `value` and everything it holds, so one value can be handed to
 * many readers and none can change it under another (a change throws: the
 * package's modules run in strict mode).
 */
export function deepFreeze<T>(value: T): T {
  runSteps(freezeSteps(value));
  return value;
}

/** Objects frozen between two looks at the clock in `deepFreezeInTurns`. */
const OBJECTS_PER_LOOK = 1_000;

/**
 * `deepFreeze` with turns of the event loop (`turn`, from `eventLoopTurns`):
 * a scale cluster's state is millions of objects, a walk of seconds the
 * backend answers during. Nothing may read `value` before it resolves.
 */
export async function deepFreezeInTurns<T>(
  value: T,
  turn: () => Promise<void> = processTurns,
): Promise<T> {
  let sinceLook = 0;
  for (const _ of freezeSteps(value)) {
    if (++sinceLook === OBJECTS_PER_LOOK) {
      sinceLook = 0;
      await turn();
    }
  }
  return value;
}
