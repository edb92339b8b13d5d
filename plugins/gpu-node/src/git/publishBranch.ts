/**
 * Publishing one request's branch on the cached clone: one commit on the
 * current base, pushed with a lease so we never overwrite commits that are
 * not ours, rebuilt on a fresh fetch when the base or the branch moved.
 * Every message that leaves this file is redacted.
 */
import path from 'node:path';
import type { FileChange } from '../changes/types';
import { writeChangeSet } from '../changes/stagedTree';
import { FsRepoTree } from '../repo/tree';
import type { CachedClone } from './cachedClone';
import { GitOpsError } from './errors';
import type { SparseReach } from './sparseReach';

/** What the remote branch of a request holds before we push. */
export interface RemoteBranchState {
  sha: string;
  tree: string;
  parents: string[];
  message: string;
}

/** A built and committed change, with the base it was built on. */
interface CarriedCommit {
  baseSha: string;
  built: BuiltCommit;
  commit: CommitResult;
}

export interface CommitResult {
  sha: string;
  tree: string;
  files: string[];
}

/**
 *  The commit one build attempt wants on the branch.
 *
 * @public
 */
export interface BuiltCommit {
  changes: FileChange[];
  message: string;
}

/** @public */
export interface BuildContext {
  /** Checkout of the base (sparse), readable with FsRepoTree. */
  workDir: string;
  baseSha: string;
  /** 1 for the first build, 2+ for rebuilds after a rejected push. */
  attempt: number;
}

/** @public */
export interface PublishBranchOptions {
  branch: string;
  /** Trailer line (`Gpu-Request: ns/name`) that marks the branch's commit as ours. */
  trailer: string;
  /** Folders to check out (cone mode); the folders of changed files are added. */
  sparsePaths: string[];
  /** What else the checkout must hold, by what its files reference (`sparseReach.ts`). */
  sparseReach?: SparseReach;
  /**
   * Builds the change set on the freshly fetched base. Called again after a
   * push was rejected because the base or the branch moved. Returning
   * undefined (or no changes) means the base already holds the request.
   */
  build(context: BuildContext): Promise<BuiltCommit | undefined>;
  /** Push attempts (default 3). */
  maxAttempts?: number;
  /**
   * The branch is known to exist (the updater's re-render of an open pull
   * request): the first attempt asks the remote for its tip and leases it,
   * rather than pushing optimistically as for a new branch.
   */
  branchExists?: boolean;
  /** Called right before each push; lets tests and callers interleave (e.g. abort). */
  beforePush?(attempt: number): Promise<void>;
  /** Times each git step (fetch, commit, push) for the caller's report; steps run plainly without it. */
  stage?<T>(name: string, step: () => Promise<T>): Promise<T>;
}

/** @public */
export interface PublishBranchResult {
  branch: string;
  baseSha: string;
  /** The commit now at the remote branch (undefined when nothing changed). */
  commit?: string;
  /** False when the base already holds the request: no commit, no push. */
  changed: boolean;
  /** False when the remote branch already held exactly this commit content on this base. */
  pushed: boolean;
  /** The branch existed on the remote before this run. */
  branchExisted: boolean;
  attempts: number;
  files: string[];
}

/** Runs each git step of a publication, timed when the caller asked. */
type StageRunner = NonNullable<PublishBranchOptions['stage']>;

/** What one publication learns from attempt to attempt. */
interface PublishLoop {
  /**
   * Most runs open a new branch: the first attempt skips asking the remote
   * about it and pushes with a lease that requires the branch to be absent.
   * If it exists after all, that push is refused and the loop asks. A
   * caller that knows the branch exists (`branchExists`) asks first.
   */
  optimistic: boolean;
  branchExistedAtStart?: boolean;
  /** The commit of the refused optimistic push, still right when the base did not move. */
  carried?: CarriedCommit;
  lastError?: GitOpsError;
}

/** How an attempt ended when it did not finish the publication. */
type AttemptEnd =
  /** The optimistic push met an existing branch: discovery, not a failed attempt. */
  | 'branch-found'
  /** The base or the branch moved: again from a fresh fetch. */
  | 'moved';

/**
 * Runs the whole branch publication with bounded retries:
 * sync base → build → commit → push (lease) and, when the push is rejected
 * because the base or the branch moved, again from a fresh fetch.
 * The caller holds the clone lock.
 */
export async function publishBranchOnClone(
  clone: CachedClone,
  options: PublishBranchOptions,
): Promise<PublishBranchResult> {
  const maxAttempts = Math.max(1, options.maxAttempts ?? 3);
  const stage: StageRunner =
    options.stage ?? (<T>(_name: string, step: () => Promise<T>) => step());
  const loop: PublishLoop = { optimistic: options.branchExists !== true };
  for (let attempt = 1; attempt <= maxAttempts; attempt++) {
    const end = await publishAttempt(clone, options, stage, loop, attempt);
    if (end === 'branch-found') {
      attempt--;
      continue;
    }
    if (end !== 'moved') return end;
    if (attempt < maxAttempts) {
      clone.logger.warn(
        `push of ${options.branch} rejected (attempt ${attempt}/${maxAttempts}); ` +
          `fetching and rebuilding on the new base: ${firstLine(loop.lastError?.message ?? '')}`,
      );
    }
  }
  throw new GitOpsError(
    clone.redactor.redact(
      `push of ${options.branch} was rejected ${maxAttempts} times (the base or the branch kept moving): ${
        loop.lastError?.message ?? ''
      }`,
    ),
    'push-rejected',
  );
}

/**
 * One attempt: the base (fetched, or the carried commit's), the change built
 * and committed on it, then pushed with the lease — or kept when the remote
 * branch already holds it.
 */
async function publishAttempt(
  clone: CachedClone,
  options: PublishBranchOptions,
  stage: StageRunner,
  loop: PublishLoop,
  attempt: number,
): Promise<PublishBranchResult | AttemptEnd> {
  const reused = loop.carried;
  loop.carried = undefined;
  const baseSha =
    reused?.baseSha ??
    (await stage('Fetch base', () =>
      clone.sync(options.sparsePaths, options.sparseReach),
    ));
  const remote = loop.optimistic
    ? undefined
    : await remoteBranch(clone, options.branch);
  if (!loop.optimistic) loop.branchExistedAtStart ??= remote !== undefined;
  const built =
    reused?.built ??
    (await options.build({ workDir: clone.workDir, baseSha, attempt }));
  const commit =
    built && built.changes.length > 0
      ? (reused?.commit ??
        (await stage('Commit', () =>
          commitOnBase(clone, built, options.trailer),
        )))
      : undefined;
  if (!built || !commit) {
    return unchanged(clone, options.branch, baseSha, attempt, loop);
  }
  const published = { baseSha, attempts: attempt, files: commit.files };
  // Checked only when we would push: a no-op run never fails on someone's branch.
  if (remote) refuseForeignCommits(clone, options, remote);
  if (remote && holdsCommit(remote, commit, baseSha)) {
    // Same content on the same base: the branch is already right; keep its commit.
    clone.logger.info(
      `branch ${options.branch} already holds this change on ${baseSha.slice(0, 12)}`,
    );
    await clone.markClean();
    return {
      ...published,
      branch: options.branch,
      commit: remote.sha,
      changed: true,
      pushed: false,
      branchExisted: loop.branchExistedAtStart ?? true,
    };
  }
  await options.beforePush?.(attempt);
  try {
    const pushed = await stage('Push', () =>
      push(clone, options.branch, remote?.sha),
    );
    await clone.markClean();
    return {
      ...published,
      branch: options.branch,
      commit: commit.sha,
      changed: true,
      pushed: pushed === 'pushed',
      branchExisted: loop.branchExistedAtStart ?? pushed === 'up-to-date',
    };
  } catch (error) {
    return refusedPush(clone, options.branch, loop, error as GitOpsError, {
      baseSha,
      built,
      commit,
    });
  }
}

/** Whether the remote branch is one commit on `baseSha` with exactly `commit`'s tree. */
function holdsCommit(
  remote: RemoteBranchState,
  commit: CommitResult,
  baseSha: string,
): boolean {
  return (
    remote.tree === commit.tree &&
    remote.parents.length === 1 &&
    remote.parents[0] === baseSha
  );
}

/**
 * What a refused push means for the next attempt; a refusal that is a rule
 * (not the base or the branch moving) is thrown as it is.
 */
async function refusedPush(
  clone: CachedClone,
  branch: string,
  loop: PublishLoop,
  error: GitOpsError,
  attempted: CarriedCommit,
): Promise<AttemptEnd> {
  if (!(await baseOrBranchMoved(clone, error, attempted.baseSha))) throw error;
  if (loop.optimistic) {
    loop.optimistic = false;
    // Refused because the branch exists (a re-run): that was discovery,
    // not a failed attempt. Otherwise the base moved: a real retry.
    if ((await remoteBranch(clone, branch)) !== undefined) {
      // On the same base the change built is still the change (the
      // updater's re-renders always meet their branch): pushed again
      // with the branch's lease, not built a second time.
      if ((await remoteBaseSha(clone)) === attempted.baseSha) {
        loop.carried = attempted;
      }
      return 'branch-found';
    }
  }
  loop.lastError = error;
  return 'moved';
}

/** A run that changes nothing: the clone is clean again, and whether the branch exists is said. */
async function unchanged(
  clone: CachedClone,
  branch: string,
  baseSha: string,
  attempts: number,
  { branchExistedAtStart }: PublishLoop,
): Promise<PublishBranchResult> {
  await clone.markClean();
  return {
    branch,
    baseSha,
    changed: false,
    pushed: false,
    branchExisted:
      branchExistedAtStart ?? (await remoteBranch(clone, branch)) !== undefined,
    attempts,
    files: [],
  };
}

/** A branch whose tip was not made for this request is someone's work: never overwritten. */
function refuseForeignCommits(
  clone: CachedClone,
  options: PublishBranchOptions,
  remote: Parameters<typeof isOurs>[0],
): void {
  if (isOurs(remote, options.trailer)) return;
  throw new GitOpsError(
    clone.redactor.redact(
      `branch ${options.branch} on ${clone.repoUrl} has commits that were not made for this request ` +
        `(tip ${remote.sha.slice(0, 12)} lacks "${options.trailer}"); refusing to overwrite them. ` +
        `Merge or delete that branch, then run again.`,
    ),
    'foreign-commits',
  );
}

/**
 * Whether a failed push is worth a rebuild on a fresh fetch: the lease was
 * stale or the push no fast-forward (the base or the branch moved), or a
 * hook refused it while the base moved meanwhile (a server may demand
 * branches on top of the current base). Any other refusal — a hook on an
 * unchanged base, a protected branch — is a rule, reported once as it is.
 */
async function baseOrBranchMoved(
  clone: CachedClone,
  error: GitOpsError,
  baseSha: string,
): Promise<boolean> {
  if (error.kind === 'push-rejected') return true;
  if (error.kind !== 'push-refused') return false;
  if (!error.refusal || error.refusal.protectedBranch) return false;
  const current = await remoteBaseSha(clone);
  return Boolean(current) && current !== baseSha;
}

/** The remote base branch's tip ('' when it is gone). */
async function remoteBaseSha(clone: CachedClone): Promise<string> {
  const listing = await clone.run([
    'ls-remote',
    'origin',
    `refs/heads/${clone.baseBranch}`,
  ]);
  return listing.split(/\s+/)[0];
}

/** The remote branch's tip, or undefined when the branch does not exist. */
async function remoteBranch(
  clone: CachedClone,
  branch: string,
): Promise<RemoteBranchState | undefined> {
  const listing = await clone.run([
    'ls-remote',
    'origin',
    `refs/heads/${branch}`,
  ]);
  const sha = listing.split(/\s+/)[0];
  if (!sha) return undefined;
  await clone.run([
    'fetch',
    '--no-tags',
    '--depth',
    '1',
    'origin',
    `+refs/heads/${branch}:refs/remotes/origin/${branch}`,
  ]);
  const raw = await clone.run(['cat-file', 'commit', sha]);
  const [header, ...rest] = raw.split('\n\n');
  const lines = header.split('\n');
  return {
    sha,
    tree: lines
      .find(l => l.startsWith('tree '))!
      .slice(5)
      .trim(),
    parents: lines
      .filter(l => l.startsWith('parent '))
      .map(l => l.slice(7).trim()),
    message: rest.join('\n\n'),
  };
}

function isOurs(remote: RemoteBranchState, trailer: string): boolean {
  return remote.message.split('\n').some(line => line.trim() === trailer);
}

/** Cone-mode sparse checkout takes folders: the parent folder of each file. */
function folderOf(file: string): string | undefined {
  const dir = path.posix.dirname(file);
  return dir === '.' ? undefined : dir;
}

/** One commit on a fresh branch from the base; undefined when it would be empty. */
async function commitOnBase(
  clone: CachedClone,
  built: BuiltCommit,
  trailer: string,
): Promise<CommitResult | undefined> {
  await clone.coverFolders([
    ...new Set(built.changes.map(c => folderOf(c.path)).filter(Boolean)),
  ] as string[]);
  // The commit is made on the detached base (sync checked it out) and
  // pushed as HEAD:refs/heads/<branch>: no local branch is needed.
  // Written through FsRepoTree: never outside the work tree, never through
  // a symlink the repository holds (a GpuInputError names it).
  const workTree = new FsRepoTree(clone.workDir);
  await writeChangeSet(workTree, { changes: built.changes, empty: false });
  const files = built.changes.map(c => c.path);
  // `git add` of a path whose file is gone stages its deletion.
  await clone.run(['add', '--', ...files]);
  const message = `${built.message.trim()}\n\n${trailer}\n`;
  try {
    await clone.run(['commit', '--quiet', '--no-verify', '--file=-'], {
      stdin: message,
    });
  } catch (error) {
    // `git commit` exits 1 with "nothing to commit" when the files equal the base.
    if (/nothing (added )?to commit|no changes added/i.test(String(error))) {
      return undefined;
    }
    throw error;
  }

  const [sha, tree] = (await clone.run(['rev-parse', 'HEAD', 'HEAD^{tree}']))
    .trim()
    .split('\n');
  return { sha, tree, files: [...files].sort() };
}

/**
 * Pushes our branch. The lease names the sha we saw (or "must not exist"),
 * so a branch someone else changed meanwhile is never overwritten.
 */
async function push(
  clone: CachedClone,
  branch: string,
  expectedSha: string | undefined,
): Promise<'pushed' | 'up-to-date'> {
  const ref = `refs/heads/${branch}`;
  const output = await clone.run([
    'push',
    '--porcelain',
    `--force-with-lease=${ref}:${expectedSha ?? ''}`,
    'origin',
    `HEAD:${ref}`,
  ]);
  // Porcelain flag `=`: the remote branch already is this very commit.
  return /^=\t/m.test(output) ? 'up-to-date' : 'pushed';
}

function firstLine(text: string): string {
  return text.split('\n').find(l => l.trim()) ?? text;
}
