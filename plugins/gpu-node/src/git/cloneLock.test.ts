import { spawn, spawnSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { withCloneLock } from './cloneLock';

describe('withCloneLock', () => {
  let dir: string;
  beforeEach(async () => {
    dir = path.join(
      await fs.mkdtemp(path.join(os.tmpdir(), 'gpu-lock-')),
      'clone',
    );
  });
  afterEach(() => fs.rm(path.dirname(dir), { recursive: true, force: true }));

  it('runs work for one clone one at a time in this process', async () => {
    const events: string[] = [];
    const job = (name: string) =>
      withCloneLock(dir, async () => {
        events.push(`start ${name}`);
        await new Promise(r => setImmediate(r));
        events.push(`end ${name}`);
      });
    await Promise.all([job('a'), job('b')]);
    expect(events).toEqual(['start a', 'end a', 'start b', 'end b']);
    await expect(fs.access(`${dir}.lock`)).rejects.toThrow();
  });

  it('takes over a lock left by a killed process', async () => {
    // A pid that existed and is gone: a finished child process.
    const dead = spawnSync(process.execPath, ['-e', '0']).pid!;
    await fs.mkdir(`${dir}.lock`, { recursive: true });
    await fs.writeFile(path.join(`${dir}.lock`, 'owner'), `${dead}\n`);
    await expect(withCloneLock(dir, async () => 'ran')).resolves.toBe('ran');
  });

  it('takes over a leftover lock carrying this process id', async () => {
    await fs.mkdir(`${dir}.lock`, { recursive: true });
    await fs.writeFile(path.join(`${dir}.lock`, 'owner'), `${process.pid}\n`);
    await expect(
      withCloneLock(dir, async () => 'ran', { timeoutMs: 0 }),
    ).resolves.toBe('ran');
  });

  it('waits for a live owner and says who holds the lock on timeout', async () => {
    await fs.mkdir(`${dir}.lock`, { recursive: true });
    // The parent process is alive and is not us.
    await fs.writeFile(path.join(`${dir}.lock`, 'owner'), `${process.ppid}\n`);
    await expect(
      withCloneLock(dir, async () => 'ran', { timeoutMs: 0, pollMs: 1 }),
    ).rejects.toThrow(`is locked by process ${process.ppid}`);
  });

  it('releases the lock when the work fails', async () => {
    await expect(
      withCloneLock(dir, async () => {
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    await expect(withCloneLock(dir, async () => 'again')).resolves.toBe(
      'again',
    );
  });

  it('waits for a live holder with a notice through the logger, then gives up with a clear message', async () => {
    const holder = spawn(process.execPath, [
      '-e',
      'setTimeout(() => {}, 60000)',
    ]);
    try {
      await fs.mkdir(`${dir}.lock`, { recursive: true });
      await fs.writeFile(path.join(`${dir}.lock`, 'owner'), `${holder.pid}\n`);
      const notices: { at: number; message: string }[] = [];
      const logger = {
        info: (message: string) => notices.push({ at: Date.now(), message }),
      };
      const ran = jest.fn();
      const error = await withCloneLock(dir, async () => ran(), {
        timeoutMs: 1200,
        pollMs: 20,
        noticeEveryMs: 400,
        logger,
      }).catch(e => e);
      expect(ran).not.toHaveBeenCalled();
      expect(error.message).toMatch(
        new RegExp(
          `is locked by process ${holder.pid} since \\d\\d:\\d\\d:\\d\\d .*gave up after waiting 1\\.2 s`,
        ),
      );
      expect(notices[0].message).toMatch(
        new RegExp(
          `^waiting for the git cache lock held by process ${holder.pid} since \\d\\d:\\d\\d:\\d\\d…$`,
        ),
      );
      // Once at the start, then no more often than every noticeEveryMs.
      for (let i = 1; i < notices.length; i++) {
        expect(notices[i].at - notices[i - 1].at).toBeGreaterThanOrEqual(400);
      }
      // The holder ends: its lock is taken over.
      holder.kill('SIGKILL');
      await new Promise(resolve => holder.once('exit', resolve));
      await expect(withCloneLock(dir, async () => 'ran')).resolves.toBe('ran');
    } finally {
      holder.kill('SIGKILL');
    }
  });

  it('runs as soon as a live holder releases the lock', async () => {
    await fs.mkdir(`${dir}.lock`, { recursive: true });
    await fs.writeFile(path.join(`${dir}.lock`, 'owner'), `${process.ppid}\n`);
    const notices: string[] = [];
    const waiting = withCloneLock(dir, async () => 'ran', {
      pollMs: 10,
      logger: { info: m => notices.push(m) },
    });
    await new Promise(resolve => setTimeout(resolve, 100));
    await fs.rm(`${dir}.lock`, { recursive: true, force: true });
    await expect(waiting).resolves.toBe('ran');
    expect(notices).toHaveLength(1);
  });
});
