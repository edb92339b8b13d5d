/**
 * Test helper: real bare git repositories in temp dirs (the "remote"), seeded
 * with files, plus a scratch clone to inspect or move the remote like another
 * user would.
 */
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gitEnvironment } from '../auth';
import { runGit } from '../runGit';

/**
 *  File content, a symbolic link to `symlink` (git mode 120000), or null to remove the path.
 *
 * @public
 */
export type RemoteFile = string | { symlink: string } | null;

/** @public */
export interface BareRemote {
  /** Root temp dir (remove in afterEach). */
  root: string;
  /** Path of the bare repository (usable as repoUrl). */
  url: string;
  /** Commits files (or symbolic links) to a branch of the remote as another user would. */
  commitFiles(
    files: Record<string, RemoteFile>,
    message: string,
    branch?: string,
  ): Promise<string>;
  /** Reads a file at a ref of the remote (undefined when missing). */
  readFile(ref: string, file: string): Promise<string | undefined>;
  /** sha of a branch, or undefined. */
  branchSha(branch: string): Promise<string | undefined>;
  /** `git log --format=...` of a ref on the remote. */
  git(args: string[]): Promise<string>;
  cleanup(): Promise<void>;
}

const AUTHOR_ENV = {
  GIT_AUTHOR_NAME: 'Other User',
  GIT_AUTHOR_EMAIL: 'other@example.com',
  GIT_COMMITTER_NAME: 'Other User',
  GIT_COMMITTER_EMAIL: 'other@example.com',
};

/** @public */
export async function createBareRemote(
  initialFiles: Record<string, RemoteFile>,
  branch = 'main',
): Promise<BareRemote> {
  const root = await fs.mkdtemp(path.join(os.tmpdir(), 'gpu-gitops-remote-'));
  const url = path.join(root, 'remote.git');
  // gpu-node's own git runner, so that simple-git stays a dependency of the
  // tests alone (this helper is shared with other packages' tests).
  await runGit(
    root,
    ['init', '--bare', '--quiet', `--initial-branch=${branch}`, url],
    gitEnvironment(url, {}),
  );
  const bare = {
    raw: (args: string[]) => runGit(url, args, gitEnvironment(url, {})),
  };
  let scratchCount = 0;

  const commitFiles = async (
    files: Record<string, RemoteFile>,
    message: string,
    target = branch,
  ) => {
    const dir = path.join(root, `scratch-${scratchCount++}`);
    await fs.mkdir(dir);
    const git = {
      raw: (args: string[]) =>
        runGit(dir, args, gitEnvironment(url, {}, AUTHOR_ENV)),
    };
    await git.raw(['init', '--quiet', `--initial-branch=${target}`]);
    await git.raw(['remote', 'add', 'origin', url]);
    const exists = (await bare.raw(['branch', '--list', target])).trim() !== '';
    if (exists) {
      await git.raw(['fetch', '--quiet', 'origin', target]);
      await git.raw(['checkout', '--quiet', '-B', target, 'FETCH_HEAD']);
    }
    for (const [file, content] of Object.entries(files)) {
      const entry = path.join(dir, file);
      await fs.mkdir(path.dirname(entry), { recursive: true });
      // Replaced, never written through (it may be a link).
      await fs.rm(entry, { recursive: true, force: true });
      if (typeof content === 'string') await fs.writeFile(entry, content);
      else if (content) await fs.symlink(content.symlink, entry);
    }
    await git.raw(['add', '-A']);
    await git.raw(['commit', '--quiet', '-m', message]);
    await git.raw(['push', '--quiet', 'origin', `HEAD:refs/heads/${target}`]);
    const sha = (await git.raw(['rev-parse', 'HEAD'])).trim();
    await fs.rm(dir, { recursive: true, force: true });
    return sha;
  };

  await commitFiles(initialFiles, 'initial');
  return {
    root,
    url,
    commitFiles,
    readFile: async (ref, file) => {
      try {
        return await bare.raw(['show', `${ref}:${file}`]);
      } catch {
        return undefined;
      }
    },
    branchSha: async name => {
      try {
        return (
          (
            await bare.raw([
              'rev-parse',
              '--verify',
              '--quiet',
              `refs/heads/${name}`,
            ])
          ).trim() || undefined
        );
      } catch {
        return undefined;
      }
    },
    git: args => bare.raw(args),
    cleanup: () => fs.rm(root, { recursive: true, force: true }),
  };
}

/**
 * Installs a pre-receive hook on the remote that refuses a pushed `gpu/*`
 * branch whose commit is not directly on top of the current main — the
 * "branch must be up to date with its base" policy many forges enforce.
 */
export async function requireUpToDateBranches(
  remote: BareRemote,
  base = 'main',
) {
  const hook = path.join(remote.url, 'hooks', 'pre-receive');
  await fs.writeFile(
    hook,
    `#!/bin/sh
main=$(git rev-parse refs/heads/${base})
while read old new ref; do
  case "$ref" in
    refs/heads/gpu/*)
      parent=$(git rev-parse "$new^" 2>/dev/null)
      if [ "$parent" != "$main" ]; then
        echo "branch $ref is not up to date with ${base}" >&2
        exit 1
      fi;;
  esac
done
exit 0
`,
    { mode: 0o755 },
  );
}

/**
 * Installs a pre-receive hook that refuses every push to a `gpu/*` branch,
 * printing `lines` to stderr as a server-side rule does (git relays them as
 * `remote:` lines). Other branches (main, moved by tests) are accepted.
 */
export async function refuseGpuBranchPushes(
  remote: BareRemote,
  lines: string[],
) {
  const hook = path.join(remote.url, 'hooks', 'pre-receive');
  const echo = lines
    .map(line => `      echo '${line.replace(/'/g, `'\\''`)}' >&2`)
    .join('\n');
  await fs.writeFile(
    hook,
    `#!/bin/sh
while read old new ref; do
  case "$ref" in
    refs/heads/gpu/*)
${echo}
      exit 1;;
  esac
done
exit 0
`,
    { mode: 0o755 },
  );
}
