/**
 * Where the local forge keeps a pull request's description. A plain git
 * remote has no pull-request store, so the description lives in the
 * repository itself, beside the branch: the ref
 * `refs/gpu-gitops/pull-requests/<branch>` points at a commit (no parent)
 * whose message is the title and whose tree holds `description.md`. Like
 * Gerrit's NoteDb (`refs/changes/…/meta`, change metadata as commits in the
 * repository, https://gerrit-review.googlesource.com/Documentation/note-db.html),
 * it travels with the repository, needs nothing but git, and is never part
 * of a branch, so merging a pull request never merges its description.
 */
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Redactor } from '../redact';
import { gitEnvironment, type GitAuth } from '../git/auth';
import { DEFAULT_GIT_AUTHOR } from '../git/GitOpsRepository';
import { runGit } from '../git/runGit';

/** The namespace of description refs (never under refs/heads: they are no branches). */
export const DESCRIPTION_REF_PREFIX = 'refs/gpu-gitops/pull-requests/';

/** The file of the description commit's tree. */
export const DESCRIPTION_FILE = 'description.md';

const DESCRIPTION_DATE = '2000-01-01T00:00:00Z';

export function descriptionRef(branch: string): string {
  return `${DESCRIPTION_REF_PREFIX}${branch}`;
}

export interface WriteDescriptionOptions {
  repoUrl: string;
  branch: string;
  title: string;
  body: string;
  auth?: GitAuth;
  timeoutMs?: number;
  redactor?: Redactor;
}

/**
 * Writes (or replaces) the description of `branch` on the remote: the
 * commit is made in a scratch repository and pushed to its ref, so this
 * works for any git remote the branch was pushed to, with the same
 * credentials and timeout.
 */
export async function writeLocalDescription(
  options: WriteDescriptionOptions,
): Promise<void> {
  const scratch = await fs.mkdtemp(
    path.join(os.tmpdir(), 'gpu-gitops-description-'),
  );
  const env = gitEnvironment(options.repoUrl, options.auth ?? {}, {
    GIT_AUTHOR_NAME: DEFAULT_GIT_AUTHOR.name,
    GIT_AUTHOR_EMAIL: DEFAULT_GIT_AUTHOR.email,
    GIT_COMMITTER_NAME: DEFAULT_GIT_AUTHOR.name,
    GIT_COMMITTER_EMAIL: DEFAULT_GIT_AUTHOR.email,
    // A fixed date makes the commit a function of title and body: a re-run
    // with the same description pushes the same commit and moves no ref.
    GIT_AUTHOR_DATE: DESCRIPTION_DATE,
    GIT_COMMITTER_DATE: DESCRIPTION_DATE,
  });
  const git = (args: string[], stdin?: string) =>
    runGit(scratch, args, env, { stdin, timeoutMs: options.timeoutMs });
  try {
    await git(['init', '--quiet', '--bare']);
    const blob = (
      await git(['hash-object', '-w', '--stdin'], options.body)
    ).trim();
    const tree = (
      await git(['mktree'], `100644 blob ${blob}\t${DESCRIPTION_FILE}\n`)
    ).trim();
    const commit = (
      await git(['commit-tree', tree, '-F', '-'], `${options.title}\n`)
    ).trim();
    // The product owns these refs: the newest description replaces the last.
    await git([
      'push',
      '--quiet',
      '--force',
      '--',
      options.repoUrl,
      `${commit}:${descriptionRef(options.branch)}`,
    ]);
  } catch (error) {
    throw options.redactor ? options.redactor.redactError(error) : error;
  } finally {
    await fs.rm(scratch, { recursive: true, force: true });
  }
}
