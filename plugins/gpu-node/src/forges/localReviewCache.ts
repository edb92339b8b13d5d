/**
 * The local forge reviewer's own bare cache of the remote: fetched before
 * every answer, under the clone lock, with the same credentials, timeouts and
 * redaction as every other git command of the product; and the git questions
 * a review asks of it (branches, refs, ancestry, git's own merge).
 */
import { createHash } from 'node:crypto';
import { GPU_BRANCH_PREFIX } from '@gpu-gitops/plugin-gpu-common';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { gitEnvironment } from '../git/auth';
import { withCloneLock } from '../git/cloneLock';
import { DEFAULT_GIT_AUTHOR, type GitAuthor } from '../git/GitOpsRepository';
import { runGit } from '../git/runGit';
import { Redactor } from '../redact';
import { DESCRIPTION_REF_PREFIX } from './localDescription';
import type { LocalPullRequestsOptions } from './localPullRequestTypes';

/** git's merge of head into base: its tree, or the conflicting files. */
export type MergeTreeResult =
  { clean: true; tree: string } | { clean: false; conflicts: string[] };

export class LocalReviewCache {
  private readonly gitDir: string;
  private readonly redactor: Redactor;
  private readonly committer: GitAuthor;
  /** Set for each locked run, with that run's credentials. */
  private env: Record<string, string> = {};

  constructor(
    private readonly options: LocalPullRequestsOptions,
    readonly baseBranch: string,
  ) {
    const key = createHash('sha256')
      .update(options.repoUrl)
      .digest('hex')
      .slice(0, 16);
    this.gitDir = path.join(options.cacheDir, `gitops-review-${key}.git`);
    this.redactor = options.redactor ?? new Redactor();
    this.committer = options.committer ?? DEFAULT_GIT_AUTHOR;
  }

  /** Runs `work` under the clone lock, with fresh credentials. */
  locked<T>(work: () => Promise<T>): Promise<T> {
    return withCloneLock(this.gitDir, async () => {
      const { auth } = this.options;
      const current = (typeof auth === 'function' ? await auth() : auth) ?? {};
      this.redactor.add(current.token);
      this.env = gitEnvironment(this.options.repoUrl, current, {
        GIT_AUTHOR_NAME: this.committer.name,
        GIT_AUTHOR_EMAIL: this.committer.email,
        GIT_COMMITTER_NAME: this.committer.name,
        GIT_COMMITTER_EMAIL: this.committer.email,
      });
      return work();
    });
  }

  async git(args: string[], stdin?: string): Promise<string> {
    try {
      return await runGit(this.gitDir, args, this.env, {
        stdin,
        timeoutMs: this.options.timeoutMs,
      });
    } catch (error) {
      throw this.redactor.redactError(error);
    }
  }

  /**
   * Brings the cache up to date with the remote: the base, every request
   * branch and every description (gone ones pruned). Returns the base commit.
   */
  async fetch(): Promise<string> {
    await this.ensureRepository();
    await this.git([
      'fetch',
      '--quiet',
      '--prune',
      '--no-tags',
      'origin',
      `+refs/heads/${this.baseBranch}:refs/heads/${this.baseBranch}`,
      `+refs/heads/${GPU_BRANCH_PREFIX}*:refs/heads/${GPU_BRANCH_PREFIX}*`,
      `+${DESCRIPTION_REF_PREFIX}*:${DESCRIPTION_REF_PREFIX}*`,
    ]);
    const base = await this.resolve(`refs/heads/${this.baseBranch}`);
    if (!base) {
      throw new Error(
        `the GitOps repository has no branch ${this.baseBranch} (gpu.gitops.baseBranch)`,
      );
    }
    return base;
  }

  private async ensureRepository(): Promise<void> {
    try {
      await fs.access(path.join(this.gitDir, 'HEAD'));
      return;
    } catch {
      // First use: a bare repository whose origin is the remote.
    }
    await fs.mkdir(this.gitDir, { recursive: true });
    await this.git(['init', '--quiet', '--bare']);
    await this.git(['remote', 'add', 'origin', this.options.repoUrl]);
  }

  /** The request branches on the remote (fetched), sorted. */
  async branches(): Promise<string[]> {
    const listing = await this.git([
      'for-each-ref',
      '--format=%(refname)',
      `refs/heads/${GPU_BRANCH_PREFIX}`,
    ]);
    return listing
      .split('\n')
      .filter(Boolean)
      .map(ref => ref.slice('refs/heads/'.length))
      .sort();
  }

  /** git's own merge of head into base, without a work tree (git 2.38+). */
  async mergeTree(base: string, head: string): Promise<MergeTreeResult> {
    try {
      const out = await this.git([
        'merge-tree',
        '--write-tree',
        '--name-only',
        '--no-messages',
        base,
        head,
      ]);
      return { clean: true, tree: out.split('\n')[0].trim() };
    } catch (error) {
      // Exit 1 is "conflicts": the tree, then the conflicted files.
      const [tree, ...files] = (error as Error).message.split('\n');
      if (!/^[0-9a-f]{40,64}$/.test(tree.trim())) throw error;
      return {
        clean: false,
        conflicts: [...new Set(files.map(f => f.trim()).filter(Boolean))],
      };
    }
  }

  async isAncestor(commit: string, of: string): Promise<boolean> {
    try {
      await this.git(['merge-base', '--is-ancestor', commit, of]);
      return true;
    } catch {
      return false;
    }
  }

  async resolve(ref: string): Promise<string | undefined> {
    try {
      return (
        await this.git(['rev-parse', '--verify', '--quiet', `${ref}^{commit}`])
      ).trim();
    } catch {
      return undefined;
    }
  }
}
