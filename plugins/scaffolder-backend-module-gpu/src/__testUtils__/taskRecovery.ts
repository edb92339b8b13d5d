import type { JsonValue } from '@backstage/types';

/** What a worker that dies mid-step leaves behind: the error its run ends with. */
export const TASK_CRASHED = 'the worker died before the step completed';

type Checkpoint = <T extends JsonValue | void>(opts: {
  key: string;
  fn: () => Promise<T> | T;
}) => Promise<T>;

/**
 * The checkpoints of one task across restarts, as the scaffolder keeps them
 * with `scaffolder.taskRecovery` on (plugin-scaffolder-backend 4.x: a
 * recovered task re-runs its unfinished step with the checkpoints that step
 * saved before). `checkpoint` saves a result once its work completes and
 * answers from the save afterwards; `crashAfterWork` runs the work (the push
 * and the pull request happen) and dies before saving: the window in which
 * the forge has the branch and the task store does not know it.
 */
export function taskCheckpoints() {
  const saved = new Map<string, JsonValue | void>();
  const checkpoint: Checkpoint = async ({ key, fn }) => {
    if (!saved.has(key)) saved.set(key, await fn());
    return saved.get(key) as any;
  };
  const crashAfterWork: Checkpoint = async ({ fn }) => {
    await fn();
    throw new Error(TASK_CRASHED);
  };
  return { saved, checkpoint, crashAfterWork };
}
