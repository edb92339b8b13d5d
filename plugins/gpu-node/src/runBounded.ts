import { processTurns } from './repo/eventLoopTurns';

/**
 * Runs `tasks` with at most `limit` of them in flight; results in the
 * tasks' order. The first failure is thrown once every started task ended
 * (no build or read is left running behind the caller's cleanup), and no
 * task starts after it. Tasks that end at once (a file the tree holds
 * already, a folder's objects kept from an earlier pass) chain as promise
 * jobs, which never give the event loop a turn: 20k such folders held the
 * backend for seconds, so a task starts after a turn once a slice of work
 * has run (`eventLoopTurns`).
 *
 * @public
 */
export async function runBounded<T>(
  tasks: readonly (() => Promise<T>)[],
  limit: number,
): Promise<T[]> {
  const results: T[] = new Array(tasks.length);
  const failures: unknown[] = [];
  let next = 0;
  const worker = async () => {
    while (next < tasks.length && failures.length === 0) {
      await processTurns();
      if (next >= tasks.length || failures.length > 0) break;
      const index = next++;
      try {
        results[index] = await tasks[index]();
      } catch (error) {
        failures.push(error);
      }
    }
  };
  await Promise.all(
    Array.from({ length: Math.min(Math.max(1, limit), tasks.length) }, worker),
  );
  if (failures.length > 0) throw failures[0];
  return results;
}
