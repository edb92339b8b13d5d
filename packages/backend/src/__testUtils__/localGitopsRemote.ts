import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { simpleGit } from 'simple-git';
import { ensureLocalGitopsRepository } from '../localGitopsRepository';

/** The fixture the local backend seeds its GitOps repository from. */
export const FIXTURE_GITOPS_REPO = path.resolve(
  __dirname,
  '../../../../test/fixtures/gitops-repo',
);

/** What a test needs to know about the bare GitOps repository the backend pushes to. */
export interface LocalGitopsRemote {
  /** Temp folder holding everything (bare repository, clone cache, clones). */
  root: string;
  bareDir: string;
  /** Clone cache for gpu.gitops.cacheDir. */
  cacheDir: string;
  /** Every ref of the bare repository (`refs/heads/...` -> sha). */
  refs(): Promise<Record<string, string>>;
  /** Files a branch adds or changes relative to main. */
  changedFiles(branch: string): Promise<string[]>;
  /** A file's content on a branch. */
  show(branch: string, file: string): Promise<string>;
  /**
   * A fresh clone with `branch` merged into main (a merge commit, as when the
   * pull request is merged); returns the working tree folder.
   */
  /** Merges `branch` into main in a fresh clone (its path); with `push`, main of the remote moves too. */
  mergeIntoMain(branch: string, options?: { push?: boolean }): Promise<string>;
  cleanup(): Promise<void>;
}

/**
 * A bare GitOps repository in a temp dir, seeded exactly as `npm start` seeds
 * `.data/gitops.git` (the backend's own `ensureLocalGitopsRepository`).
 */
export async function createLocalGitopsRemote(): Promise<LocalGitopsRemote> {
  const root = await fs.mkdtemp(path.join(os.tmpdir(), 'backend-e2e-'));
  const { bareDir } = await ensureLocalGitopsRepository({
    bareDir: path.join(root, 'gitops.git'),
    fixtureDir: FIXTURE_GITOPS_REPO,
  });
  const bare = simpleGit(bareDir);
  let clones = 0;
  return {
    root,
    bareDir,
    cacheDir: path.join(root, 'cache'),
    async refs() {
      const out = await bare.raw([
        'for-each-ref',
        '--format=%(refname) %(objectname)',
      ]);
      return Object.fromEntries(
        out
          .split('\n')
          .filter(Boolean)
          .map(line => line.split(' ') as [string, string]),
      );
    },
    async changedFiles(branch) {
      const out = await bare.raw(['diff', '--name-only', `main...${branch}`]);
      return out.split('\n').filter(Boolean);
    },
    async show(branch, file) {
      return bare.show([`${branch}:${file}`]);
    },
    async mergeIntoMain(branch, options) {
      const dir = path.join(root, `clone-${++clones}`);
      await simpleGit().clone(bareDir, dir, ['--quiet', '--branch', 'main']);
      await simpleGit(dir)
        .addConfig('user.name', 'Reviewer')
        .addConfig('user.email', 'reviewer@gpu-gitops.invalid')
        .merge([
          '--no-ff',
          '--quiet',
          '-m',
          `Merge ${branch}`,
          `origin/${branch}`,
        ]);
      if (options?.push) {
        await simpleGit(dir).push(['--quiet', 'origin', 'main']);
      }
      return dir;
    },
    async cleanup() {
      await fs.rm(root, { recursive: true, force: true });
    },
  };
}
