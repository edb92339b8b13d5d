/**
 * Test helper: one of the project's fixture GitOps repositories (test/
 * fixtures/gitops-repo by default) seeded into a real bare repository in a
 * temp dir, plus a scratch clone to push further commits the way another
 * user would.
 */
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { simpleGit, type SimpleGit } from 'simple-git';

export const FIXTURE_REPO = path.resolve(
  __dirname,
  '../../../../test/fixtures/gitops-repo',
);

/**
 * The second fixture, shaped like a platform team's repository (cluster
 * prod-eu): a Kustomize base with two overlays and a sidecar, a
 * two-container StatefulSet, a Job, a CronJob, plain manifests. See its README.
 */
export const PLATFORM_FIXTURE_REPO = path.resolve(
  __dirname,
  '../../../../test/fixtures/gitops-platform-repo',
);

const AUTHOR = {
  GIT_AUTHOR_NAME: 'Fixture User',
  GIT_AUTHOR_EMAIL: 'fixture@example.com',
  GIT_COMMITTER_NAME: 'Fixture User',
  GIT_COMMITTER_EMAIL: 'fixture@example.com',
};

export interface FixtureRemote {
  root: string;
  /** The bare repository (usable as repoUrl). */
  url: string;
  /** Writes files (or symbolic links; `null` deletes) and pushes one commit to main; returns its sha. */
  commit(
    files: Record<string, string | { symlink: string } | null>,
    message: string,
  ): Promise<string>;
  /** Fast-forwards main to a branch of the remote (a merged pull request). */
  merge(branch: string): Promise<string>;
  cleanup(): Promise<void>;
}

function gitIn(dir: string): SimpleGit {
  return simpleGit({
    baseDir: dir,
    allowEnvironment: Object.keys(AUTHOR),
  } as Parameters<typeof simpleGit>[0]).env({
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? os.tmpdir(),
    ...AUTHOR,
  });
}

export async function createFixtureRemote(
  extraFiles: Record<string, string> = {},
  fixture: string = FIXTURE_REPO,
): Promise<FixtureRemote> {
  const root = await fs.mkdtemp(path.join(os.tmpdir(), 'gpu-backend-remote-'));
  const url = path.join(root, 'remote.git');
  const work = path.join(root, 'work');
  await gitIn(root).raw([
    'init',
    '--bare',
    '--quiet',
    '--initial-branch=main',
    url,
  ]);
  await fs.cp(fixture, work, { recursive: true });
  for (const [file, content] of Object.entries(extraFiles)) {
    await fs.mkdir(path.dirname(path.join(work, file)), { recursive: true });
    await fs.writeFile(path.join(work, file), content);
  }
  const git = gitIn(work);
  await git.raw(['init', '--quiet', '--initial-branch=main']);
  await git.raw(['add', '-A']);
  await git.raw([
    'commit',
    '--quiet',
    '-m',
    `seed from test/fixtures/${path.basename(fixture)}`,
  ]);
  await git.raw(['remote', 'add', 'origin', url]);
  await git.raw(['push', '--quiet', 'origin', 'main']);

  const head = async () => (await git.raw(['rev-parse', 'HEAD'])).trim();
  return {
    root,
    url,
    async commit(files, message) {
      for (const [file, content] of Object.entries(files)) {
        const target = path.join(work, file);
        // Replaced, never written through (it may be a link).
        await fs.rm(target, { force: true });
        if (typeof content === 'string') {
          await fs.mkdir(path.dirname(target), { recursive: true });
          await fs.writeFile(target, content);
        } else if (content) {
          await fs.mkdir(path.dirname(target), { recursive: true });
          await fs.symlink(content.symlink, target);
        }
      }
      await git.raw(['add', '-A']);
      await git.raw(['commit', '--quiet', '-m', message]);
      await git.raw(['push', '--quiet', 'origin', 'main']);
      return head();
    },
    async merge(branch) {
      await git.raw(['fetch', '--quiet', 'origin', branch]);
      await git.raw(['merge', '--quiet', '--ff-only', 'FETCH_HEAD']);
      await git.raw(['push', '--quiet', 'origin', 'main']);
      return head();
    },
    cleanup: () => fs.rm(root, { recursive: true, force: true }),
  };
}
