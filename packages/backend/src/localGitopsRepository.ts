import { execFile } from 'node:child_process';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** Git with a fixed identity and no user/system config, so seeding is reproducible. */
async function git(args: string[], cwd?: string): Promise<string> {
  const { stdout } = await run('git', args, {
    cwd,
    env: {
      ...process.env,
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_TERMINAL_PROMPT: '0',
      GIT_AUTHOR_NAME: 'GPU GitOps seed',
      GIT_AUTHOR_EMAIL: 'seed@gpu-gitops.invalid',
      GIT_COMMITTER_NAME: 'GPU GitOps seed',
      GIT_COMMITTER_EMAIL: 'seed@gpu-gitops.invalid',
    },
  });
  return stdout.trim();
}

async function exists(p: string): Promise<boolean> {
  return fs
    .access(p)
    .then(() => true)
    .catch(() => false);
}

/**
 * Creates the local bare GitOps repository the embedded backend opens pull
 * requests against (the "PR" is a pushed branch), seeded with one commit of
 * `fixtureDir` on `branch`. Idempotent: an existing repository is left as it
 * is, so branches pushed by earlier runs survive restarts.
 */
export async function ensureLocalGitopsRepository(options: {
  bareDir: string;
  fixtureDir: string;
  branch?: string;
}): Promise<{ created: boolean; bareDir: string }> {
  const branch = options.branch ?? 'main';
  const bareDir = path.resolve(options.bareDir);
  if (await exists(path.join(bareDir, 'HEAD'))) {
    return { created: false, bareDir };
  }
  await fs.mkdir(path.dirname(bareDir), { recursive: true });
  // Build in a temporary folder and rename, so an interrupted first start
  // never leaves a half-seeded repository that later starts would accept.
  const staging = await fs.mkdtemp(path.join(path.dirname(bareDir), '.seed-'));
  const work = await fs.mkdtemp(path.join(os.tmpdir(), 'gpu-gitops-seed-'));
  try {
    await git(['init', '--bare', '--initial-branch', branch, staging]);
    await fs.cp(options.fixtureDir, work, { recursive: true });
    await git(['init', '--initial-branch', branch], work);
    await git(['add', '--all'], work);
    await git(['commit', '--quiet', '-m', 'Seed GitOps repository'], work);
    await git(['push', '--quiet', staging, `HEAD:refs/heads/${branch}`], work);
    await fs.rename(staging, bareDir);
    return { created: true, bareDir };
  } finally {
    await fs.rm(work, { recursive: true, force: true });
    await fs.rm(staging, { recursive: true, force: true });
  }
}
