/**
 * Runs `tasks` with at most `limit` of them in flight; results in the
 * tasks' order. The first failure is thrown once every started task ended
 * (no build or read is left running behind the caller's cleanup), and no
 * task starts after it.
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
