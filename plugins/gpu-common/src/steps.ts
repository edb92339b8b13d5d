/**
 * Long synchronous work written once as a generator of its steps (it
 * yields between items) runs either way: whole (`runSteps`), for the sync
 * APIs (the planner, the readers), or with a turn of the event loop when
 * one is due between steps (gpu-node `runStepsInTurns`), in the backend.
 *
 * @public
 */
export function runSteps<R>(steps: Generator<void, R>): R {
  let step = steps.next();
  while (!step.done) step = steps.next();
  return step.value;
}
