import { execFile } from 'node:child_process';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The realistic GitOps repository every test and the local backend start from. */
export const FIXTURE_GITOPS_REPO = path.resolve(
  __dirname,
  '../../../../test/fixtures/gitops-repo',
);

/**
 * The second fixture, shaped like a platform team's repository (cluster
 * prod-eu): overlays, several containers, StatefulSet, Job, CronJob,
 * hand-written apps and NodePools, Helm, an operator. See its README.
 */
export const PLATFORM_GITOPS_REPO = path.resolve(
  __dirname,
  '../../../../test/fixtures/gitops-platform-repo',
);

const GIT_ENV = {
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_TERMINAL_PROMPT: '0',
  GIT_AUTHOR_NAME: 'Fixture',
  GIT_AUTHOR_EMAIL: 'fixture@gpu-gitops.invalid',
  GIT_COMMITTER_NAME: 'Fixture',
  GIT_COMMITTER_EMAIL: 'fixture@gpu-gitops.invalid',
};

/** Runs git (real git, no mocks) and returns trimmed stdout. */
export async function git(args: string[], cwd?: string): Promise<string> {
  const { stdout } = await run('git', args, {
    cwd,
    env: { ...process.env, ...GIT_ENV },
    maxBuffer: 16 * 1024 * 1024,
  });
  return stdout.trim();
}

export interface FixtureRepo {
  /** Temp folder holding everything the test created. */
  root: string;
  /** The bare remote (what the actions push to). */
  bareDir: string;
  /** Clone-cache folder to pass as gpu.gitops.cacheDir. */
  cacheDir: string;
  /** Lists refs of the bare repo (`refs/heads/...` -> sha). */
  refs(): Promise<Record<string, string>>;
  /** Content of a file on a branch of the bare repo, or undefined. */
  show(branch: string, file: string): Promise<string | undefined>;
  /** Files on a branch of the bare repo. */
  files(branch: string): Promise<string[]>;
  /** Clones a branch into a fresh folder (for validating the whole tree). */
  checkout(branch: string): Promise<string>;
  cleanup(): Promise<void>;
}

/** A bare repository in a temp dir seeded with one commit of the fixture on `main`. */
export async function createFixtureGitopsRepo(
  fixture: string = FIXTURE_GITOPS_REPO,
): Promise<FixtureRepo> {
  const root = await fs.mkdtemp(path.join(os.tmpdir(), 'gpu-module-test-'));
  const bareDir = path.join(root, 'gitops.git');
  const work = path.join(root, 'seed');
  await git(['init', '--bare', '--initial-branch', 'main', bareDir]);
  await fs.cp(fixture, work, { recursive: true });
  await git(['init', '--initial-branch', 'main'], work);
  await git(['add', '--all'], work);
  await git(['commit', '--quiet', '-m', 'Seed'], work);
  await git(['push', '--quiet', bareDir, 'HEAD:refs/heads/main'], work);
  return {
    root,
    bareDir,
    cacheDir: path.join(root, 'cache'),
    async refs() {
      const out = await git(
        ['for-each-ref', '--format=%(refname) %(objectname)'],
        bareDir,
      );
      return Object.fromEntries(
        out
          .split('\n')
          .filter(Boolean)
          .map(line => line.split(' ') as [string, string]),
      );
    },
    async show(branch, file) {
      try {
        return await git(['show', `${branch}:${file}`], bareDir);
      } catch {
        return undefined;
      }
    },
    async files(branch) {
      const out = await git(['ls-tree', '-r', '--name-only', branch], bareDir);
      return out.split('\n').filter(Boolean);
    },
    async checkout(branch) {
      const dir = await fs.mkdtemp(path.join(root, 'checkout-'));
      await git(['clone', '--quiet', '--branch', branch, bareDir, dir]);
      return dir;
    },
    async cleanup() {
      await fs.rm(root, { recursive: true, force: true });
    },
  };
}

/**
 * A bare remote seeded from `base` (a fixture folder, or nothing) with
 * `files` written over it: the shapes a test needs beside the fixtures.
 */
export async function createFixtureGitopsRepoWith(
  files: Record<string, string>,
  base?: string,
): Promise<FixtureRepo> {
  const seed = await fs.mkdtemp(path.join(os.tmpdir(), 'gpu-module-seed-'));
  try {
    if (base) await fs.cp(base, seed, { recursive: true });
    for (const [file, text] of Object.entries(files)) {
      await fs.mkdir(path.dirname(path.join(seed, file)), { recursive: true });
      await fs.writeFile(path.join(seed, file), text);
    }
    return await createFixtureGitopsRepo(seed);
  } finally {
    await fs.rm(seed, { recursive: true, force: true });
  }
}
