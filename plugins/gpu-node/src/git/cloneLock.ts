/**
 * One run at a time per cached clone: an in-process queue, plus a lock
 * directory beside the clone for other processes (a CLI run beside the
 * backend, several backend replicas on a shared volume). A lock left by a
 * killed process (its pid is gone) or an ancient one is taken over, so a
 * crash never blocks later runs. The lock is released on every exit path of
 * the work (finally), and the work's git commands are bounded by their
 * timeout, so a stalled remote cannot hold it; a live holder is waited for,
 * with a notice through the run's logger.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { formatSeconds } from './runGit';

export interface CloneLockOptions {
  /** Give up waiting for another process after this long (default 10 min). */
  timeoutMs?: number;
  /** Locks older than this are considered abandoned (default 30 min). */
  staleMs?: number;
  pollMs?: number;
  /** Told once when the run starts waiting for another process, then at most every `noticeEveryMs`. */
  logger?: { info(message: string): void };
  /** Default 30 s. */
  noticeEveryMs?: number;
}

/** `16:02:11`, local time: when the holder took the lock. */
function clockTime(ms: number): string {
  return new Date(ms).toTimeString().slice(0, 8);
}

const queues = new Map<string, Promise<unknown>>();

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function acquire(
  lockDir: string,
  options: CloneLockOptions,
): Promise<void> {
  const timeoutMs = options.timeoutMs ?? 10 * 60_000;
  const staleMs = options.staleMs ?? 30 * 60_000;
  const pollMs = options.pollMs ?? 250;
  const noticeEveryMs = options.noticeEveryMs ?? 30_000;
  const deadline = Date.now() + timeoutMs;
  let noticedAt: number | undefined;
  await fs.mkdir(path.dirname(lockDir), { recursive: true });
  for (;;) {
    try {
      await fs.mkdir(lockDir);
      await fs.writeFile(path.join(lockDir, 'owner'), `${process.pid}\n`);
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const owner = await fs
      .readFile(path.join(lockDir, 'owner'), 'utf8')
      .catch(() => '');
    const pid = Number.parseInt(owner, 10);
    const stat = await fs.stat(lockDir).catch(() => undefined);
    // Our own pid is a leftover too: the in-process queue admits one holder.
    const abandoned =
      (Number.isInteger(pid) &&
        pid > 0 &&
        (pid === process.pid || !isAlive(pid))) ||
      (stat !== undefined && Date.now() - stat.mtimeMs > staleMs);
    if (abandoned) {
      await fs.rm(lockDir, { recursive: true, force: true });
      continue;
    }
    const holder = `process ${owner.trim() || '?'}${
      stat ? ` since ${clockTime(stat.mtimeMs)}` : ''
    }`;
    if (Date.now() > deadline) {
      throw new Error(
        `the git cache ${path.dirname(lockDir)} is locked by ${holder} (lock ${lockDir}); ` +
          `gave up after waiting ${formatSeconds(timeoutMs)}. ` +
          'Try again later; if that process hangs, stop it (its lock is then taken over)',
      );
    }
    if (noticedAt === undefined || Date.now() - noticedAt >= noticeEveryMs) {
      options.logger?.info(`waiting for the git cache lock held by ${holder}…`);
      // Counted from when the notice was given, not from just before it: a
      // clock tick between the two let the next notice come a millisecond early.
      noticedAt = Date.now();
    }
    await new Promise(resolve => setTimeout(resolve, pollMs));
  }
}

export async function withCloneLock<T>(
  dir: string,
  work: () => Promise<T>,
  options: CloneLockOptions = {},
): Promise<T> {
  const previous = queues.get(dir) ?? Promise.resolve();
  const run = async () => {
    const lockDir = `${dir}.lock`;
    await acquire(lockDir, options);
    try {
      return await work();
    } finally {
      await fs.rm(lockDir, { recursive: true, force: true });
    }
  };
  const next = previous.catch(() => undefined).then(run);
  queues.set(dir, next);
  try {
    return await next;
  } finally {
    if (queues.get(dir) === next) queues.delete(dir);
  }
}
