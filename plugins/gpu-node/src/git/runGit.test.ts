import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { GitTimeoutError, runGit } from './runGit';

/**
 * git aliases that shell out run in git's process group, like the helpers
 * a fetch or a lazy blob fetch starts: one that works (a CPU loop), one
 * that waits on nothing (a remote that stopped answering).
 */
const BUSY =
  'alias.busy=!node -e "const end = Date.now() + 1500; while (Date.now() < end);"';
const STALLED = 'alias.stalled=!sleep 30';

describe('runGit timeout', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'gpu-gitops-rungit-'));
  });
  afterEach(async () => {
    await fs.rm(dir, { recursive: true, force: true });
  });
  const env = () => ({ ...process.env, HOME: dir }) as Record<string, string>;

  it('lets a command that keeps working run past its timeout (slow is not hung)', async () => {
    await expect(
      runGit(dir, ['-c', BUSY, 'busy'], env(), { timeoutMs: 400 }),
    ).resolves.toBe('');
  });

  it('stops a command that does no work for its timeout, and says it did not finish', async () => {
    const started = Date.now();
    const error = await runGit(dir, ['-c', STALLED, 'stalled'], env(), {
      timeoutMs: 400,
    }).catch(e => e);
    expect(error).toBeInstanceOf(GitTimeoutError);
    expect(error.message).toContain('did not finish within 0.4 s');
    // A hang guard, not a speed goal: far sooner than the 30 s it would wait.
    expect(Date.now() - started).toBeLessThan(15_000);
  });
});
