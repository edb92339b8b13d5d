import { spawn } from 'node:child_process';
import { DEFAULT_GITOPS_TIMEOUT_MS } from '@gpu-gitops/plugin-gpu-common';
import { processGroupCpuTicks } from './processGroupCpu';

/** How long a git command may take when the caller names no limit. */
export const DEFAULT_GIT_TIMEOUT_MS = DEFAULT_GITOPS_TIMEOUT_MS;

/** @public */
export interface RunGitOptions {
  /** Written to git's stdin (commit messages go here, never in argv). */
  stdin?: string;
  /**
   * Kill git (and every process it started) once it worked not at all for
   * this long (a remote that stopped answering); default 60 s. A command
   * still using CPU is slow, not hung: it gets up to MAX_TIMEOUT_PERIODS
   * of this.
   */
  timeoutMs?: number;
}

/**
 *  A git command that did not finish in time; its processes were killed.
 *
 * @public
 */
export class GitTimeoutError extends Error {
  readonly command: string;
  readonly timeoutMs: number;
  constructor(command: string, timeoutMs: number) {
    super(
      `git ${command} did not finish within ${formatSeconds(timeoutMs)}: ` +
        'the remote did not answer (it accepted the connection, or a proxy did, and then stalled); ' +
        'git was stopped',
    );
    this.name = 'GitTimeoutError';
    this.command = command;
    this.timeoutMs = timeoutMs;
  }
}

/** `1.5 s`, `60 s`. */
export function formatSeconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(1))} s`;
}

/**
 * Process groups of the git commands running now. A group is its own
 * session (detached), so a Ctrl-C to the terminal no longer reaches it:
 * killed when this process exits (the CLI turns SIGINT and SIGTERM into an
 * exit), so no stalled `git-remote-http` outlives us.
 */
const liveGroups = new Set<number>();
let exitHookInstalled = false;

function killGroup(pid: number): void {
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // The group is gone already, or there are no process groups (Windows):
    // then at least git itself.
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone
    }
  }
}

function track(pid: number): void {
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.on('exit', () => liveGroups.forEach(killGroup));
  }
  liveGroups.add(pid);
}

/**
 * A command is hung when its process group used no CPU over a whole
 * `timeoutMs`: each time the period ends, one that worked gets another
 * (`processGroupCpu.ts`), up to this many periods in all, so that a
 * command that never ends still ends.
 */
export const MAX_TIMEOUT_PERIODS = 10;

/**
 * Calls `stop` once the group of `pid` stalled for `timeoutMs` (or ran
 * MAX_TIMEOUT_PERIODS of them); where CPU cannot be read, after `timeoutMs`.
 */
function hangWatch(
  pid: number | undefined,
  timeoutMs: number,
  running: () => boolean,
  stop: () => void,
): { cancel(): void } {
  let timer: NodeJS.Timeout | undefined;
  let lastTicks: number | undefined;
  let periods = 0;
  const check = async () => {
    periods++;
    const ticks =
      pid === undefined ? undefined : await processGroupCpuTicks(pid);
    if (!running()) return;
    const working =
      ticks !== undefined && (lastTicks === undefined || ticks > lastTicks);
    if (working && periods < MAX_TIMEOUT_PERIODS) {
      lastTicks = ticks;
      timer = setTimeout(check, timeoutMs);
    } else stop();
  };
  // The CPU git used before the first period ends is its first progress.
  lastTicks = pid === undefined ? undefined : 0;
  timer = setTimeout(check, timeoutMs);
  return { cancel: () => clearTimeout(timer) };
}

/**
 * Runs one git command and resolves with its stdout; rejects with its
 * stderr (then stdout) when it exits non-zero, and with a GitTimeoutError
 * when it hangs (`hangWatch`: no CPU for `timeoutMs`).
 *
 * git runs in a process group of its own, because a network command is a
 * tree (`git fetch` starts `git-remote-http`, which holds the connection):
 * on timeout the whole group is killed with SIGKILL, so a remote that
 * accepts the connection and never answers cannot hold the caller (and its
 * clone lock) forever.
 *
 * The publisher's hot path spawns git directly rather than through
 * simple-git: simple-git waits 50 ms after every command that prints
 * nothing (`clone --quiet`, `sparse-checkout set`, `add`), which was a
 * third of a cold `gpu-gitops pr` on a big repository (`npm run bench -- pr`).
 *
 * @public
 */
export function runGit(
  cwd: string,
  args: string[],
  env: Record<string, string>,
  options: RunGitOptions = {},
): Promise<string> {
  const { stdin } = options;
  const timeoutMs = options.timeoutMs ?? DEFAULT_GIT_TIMEOUT_MS;
  return new Promise<string>((resolve, reject) => {
    const child = spawn('git', args, {
      cwd,
      env,
      detached: true,
      stdio: [stdin === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    });
    const pid = child.pid;
    if (pid !== undefined) track(pid);
    let timedOut = false;
    let finished = false;
    const stop = () => {
      timedOut = true;
      if (pid !== undefined) killGroup(pid);
      // Do not wait for the pipes (a grandchild could hold them), only for
      // git itself to be gone, so "git was stopped" is true when we say it.
      child.stdout?.destroy();
      child.stderr?.destroy();
      const fail = () => reject(new GitTimeoutError(args[0] ?? '', timeoutMs));
      if (child.exitCode !== null || child.signalCode !== null) fail();
      else child.once('exit', fail);
    };
    const watch = hangWatch(pid, timeoutMs, () => !finished, stop);
    const done = () => {
      finished = true;
      watch.cancel();
      if (pid !== undefined) liveGroups.delete(pid);
    };
    let out = '';
    let err = '';
    child.stdout!.on('data', d => (out += d));
    child.stderr!.on('data', d => (err += d));
    child.on('error', error => {
      done();
      if (!timedOut) reject(error);
    });
    child.on('close', code => {
      done();
      if (timedOut) return;
      if (code === 0) resolve(out);
      else reject(new Error(`${err}${out}`.trim() || `exit code ${code}`));
    });
    if (stdin !== undefined) {
      // git may exit before reading it all (a failing commit): not our error.
      child.stdin!.on('error', () => undefined);
      child.stdin!.end(stdin);
    }
  });
}
