/**
 * The project's fixture GitOps repository (test/fixtures/gitops-repo) as a
 * real bare repository in a temp dir, with a clone to fast-forward main to a
 * published branch (a merged pull request).
 */
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { simpleGit } from 'simple-git';

const FIXTURE_REPO = path.resolve(__dirname, '../../fixtures/gitops-repo');

export interface GitopsRemote {
  root: string;
  /** The bare repository, usable as repoUrl. */
  url: string;
  /** Fast-forwards main to `branch` of the remote; returns the new main sha. */
  merge(branch: string): Promise<string>;
  /** Writes `files` (path -> text) and pushes them to main as the team's commit. */
  commit(files: Record<string, string>, message: string): Promise<void>;
  cleanup(): Promise<void>;
}

export async function createGitopsRemote(): Promise<GitopsRemote> {
  const root = await fs.mkdtemp(path.join(os.tmpdir(), 'gpu-browser-remote-'));
  const url = path.join(root, 'remote.git');
  const work = path.join(root, 'work');
  await simpleGit(root).raw(['init', '--bare', '--quiet', '-b', 'main', url]);
  await fs.cp(FIXTURE_REPO, work, { recursive: true });
  const git = simpleGit(work);
  await git.raw(['init', '--quiet', '-b', 'main']);
  await git.raw(['add', '-A']);
  await git.raw([
    '-c',
    'user.name=Fixture',
    '-c',
    'user.email=fixture@example.com',
    'commit',
    '--quiet',
    '-m',
    'seed from test/fixtures/gitops-repo',
  ]);
  await git.raw(['remote', 'add', 'origin', url]);
  await git.raw(['push', '--quiet', 'origin', 'main']);
  return {
    root,
    url,
    async merge(branch) {
      await git.raw(['fetch', '--quiet', 'origin', branch]);
      await git.raw(['merge', '--quiet', '--ff-only', 'FETCH_HEAD']);
      await git.raw(['push', '--quiet', 'origin', 'main']);
      return (await git.raw(['rev-parse', 'HEAD'])).trim();
    },
    async commit(files, message) {
      // Main may have moved by a merge on the review page since the clone's last push.
      await git.raw(['pull', '--quiet', '--ff-only', 'origin', 'main']);
      for (const [file, text] of Object.entries(files)) {
        await fs.mkdir(path.dirname(path.join(work, file)), {
          recursive: true,
        });
        await fs.writeFile(path.join(work, file), text);
      }
      await git.raw(['add', '-A']);
      await git.raw([
        '-c',
        'user.name=Team',
        '-c',
        'user.email=team@example.com',
        'commit',
        '--quiet',
        '-m',
        message,
      ]);
      await git.raw(['push', '--quiet', 'origin', 'main']);
    },
    cleanup: () => fs.rm(root, { recursive: true, force: true }),
  };
}
