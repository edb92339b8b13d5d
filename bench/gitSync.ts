import { spawnSync } from 'node:child_process';

/**
 * Runs git synchronously for building benchmark repositories (never timed
 * as product work); returns stdout, throws with stderr on failure.
 */
export function git(cwd: string, args: string[], input?: string): string {
  const run = spawnSync('git', args, {
    cwd,
    input,
    encoding: 'utf8',
    maxBuffer: 1 << 30,
  });
  if (run.status !== 0) {
    throw new Error(`git ${args.join(' ')}: ${run.stderr}`);
  }
  return run.stdout;
}
