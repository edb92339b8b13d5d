/**
 * Review for the local forge, where a pull request is a pushed `gpu/*`
 * branch: list the open ones with their descriptions (localDescription.ts),
 * show one's diff, merge it into the base branch, or close it.
 *
 * Works on its own bare cache of the remote (fetched before every answer,
 * under the clone lock), with the same credentials, timeouts and redaction
 * as every other git command of the product. Merge and close are one atomic
 * push with a lease on every ref they touch, so a branch or base that moved
 * since the reviewer looked is never merged or deleted unseen.
 *
 * Merging always makes a merge commit (as GitHub's default "Create a merge
 * commit" does): the base's history then says which pull request came in,
 * when, and who merged it. A merge git cannot make on its own is refused with
 * the conflicting files; the gpu backend's updater re-renders open pull
 * requests on a moved base, which resolves the product's own conflicts.
 */
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type {
  GpuPullRequestFile,
  GpuPullRequestMergeability,
} from '@gpu-gitops/plugin-gpu-common';
import { gitEnvironment, type GitAuth } from '../git/auth';
import { withCloneLock } from '../git/cloneLock';
import { DEFAULT_GIT_AUTHOR, type GitAuthor } from '../git/GitOpsRepository';
import { runGit } from '../git/runGit';
import { Redactor } from '../redact';
import {
  DESCRIPTION_FILE,
  DESCRIPTION_REF_PREFIX,
  descriptionRef,
} from './localDescription';

const BRANCH_PREFIX = 'gpu/';
const TRAILER = /^Gpu-Request: ([a-z0-9-]+)\/([a-z0-9-]+)\s*$/m;
/** A diff larger than this is cut (a review page is no place for megabytes). */
const MAX_DIFF_BYTES = 512 * 1024;

/**
 *  An open pull request of the local forge.
 *
 * @public
 */
export interface LocalPullRequest {
  branch: string;
  baseBranch: string;
  title: string;
  body: string;
  head: string;
  request?: { namespace: string; name: string };
  updatedAt: string;
  mergeable: GpuPullRequestMergeability;
  files: GpuPullRequestFile[];
}

/** @public */
export interface LocalPullRequestWithDiff extends LocalPullRequest {
  diff: string;
  diffTruncated: boolean;
}

/** @public */
export type LocalPullRequestErrorKind =
  /** No open pull request of that branch. */
  | 'not-found'
  /** The branch does not merge cleanly into the base. */
  | 'conflict'
  /** The branch or the base moved since the reviewer looked. */
  | 'moved';

/**
 *  A refusal in the reviewer's words: what is wrong and what to do.
 *
 * @public
 */
export class LocalPullRequestError extends Error {
  constructor(
    message: string,
    readonly kind: LocalPullRequestErrorKind,
    /** For `conflict`: the files git cannot merge. */
    readonly conflicts: string[] = [],
  ) {
    super(message);
    this.name = 'LocalPullRequestError';
  }
}

/** @public */
export interface LocalPullRequestsOptions {
  /** The remote (local path, file:// or https:// URL; never with credentials). */
  repoUrl: string;
  baseBranch?: string;
  /** Parent folder of the bare cache. */
  cacheDir: string;
  /** The remote's credentials; a function is asked before every use (app tokens expire). */
  auth?: GitAuth | (() => Promise<GitAuth>);
  /** Limit of each git command (default 60 s). */
  timeoutMs?: number;
  redactor?: Redactor;
  /** Committer of merge commits (default the product's git author). */
  committer?: GitAuthor;
}

/**
 *  A reviewer's decision on one pull request.
 *
 * @public
 */
export interface DecisionOptions {
  /** The head commit the reviewer saw. */
  head: string;
  /** Who decided, as the merge commit records it (e.g. a Backstage user ref). */
  decidedBy: string;
}

/** @public */
export class LocalPullRequests {
  readonly baseBranch: string;
  private readonly gitDir: string;
  private readonly redactor: Redactor;
  private readonly committer: GitAuthor;
  /** Set for each locked run, with that run's credentials. */
  private env: Record<string, string> = {};

  constructor(private readonly options: LocalPullRequestsOptions) {
    this.baseBranch = options.baseBranch ?? 'main';
    const key = createHash('sha256')
      .update(options.repoUrl)
      .digest('hex')
      .slice(0, 16);
    this.gitDir = path.join(options.cacheDir, `gitops-review-${key}.git`);
    this.redactor = options.redactor ?? new Redactor();
    this.committer = options.committer ?? DEFAULT_GIT_AUTHOR;
  }

  /** The open pull requests (request branches not merged into the base), by branch name. */
  async list(): Promise<LocalPullRequest[]> {
    return this.locked(async () => {
      const base = await this.fetch();
      const open: LocalPullRequest[] = [];
      for (const branch of await this.branches()) {
        const pr = await this.describe(branch, base);
        if (pr) open.push(pr);
      }
      return open;
    });
  }

  /** One open pull request with its diff against the base. */
  async get(branch: string): Promise<LocalPullRequestWithDiff> {
    return this.locked(async () => {
      const base = await this.fetch();
      const pr = await this.describe(branch, base);
      if (!pr) throw this.notFound(branch);
      const full = await this.git([
        'diff',
        '--no-color',
        '--no-ext-diff',
        `${base}...${pr.head}`,
      ]);
      const truncated = Buffer.byteLength(full) > MAX_DIFF_BYTES;
      return {
        ...pr,
        diff: truncated
          ? Buffer.from(full).subarray(0, MAX_DIFF_BYTES).toString('utf8')
          : full,
        diffTruncated: truncated,
      };
    });
  }

  /**
   * Merges the branch into the base with a merge commit and deletes the
   * branch and its description, in one atomic push. Returns the merge commit.
   */
  async merge(branch: string, decision: DecisionOptions): Promise<string> {
    return this.locked(async () => {
      const base = await this.fetch();
      const pr = await this.describe(branch, base);
      if (!pr) throw this.notFound(branch);
      this.checkHead(pr, decision.head);
      const merged = await this.mergeTree(base, pr.head);
      if (!merged.clean) {
        throw new LocalPullRequestError(
          `${branch} does not merge cleanly into ${this.baseBranch}: ` +
            `${merged.conflicts.join(', ')} changed on both sides. The gpu backend ` +
            're-renders open GPU pull requests on the new base within a minute ' +
            '(or run `gpu-gitops update`); merge it then.',
          'conflict',
          merged.conflicts,
        );
      }
      const message = [
        `Merge pull request ${branch}: ${pr.title}`,
        '',
        `Merged-by: ${decision.decidedBy}`,
        '',
      ].join('\n');
      const commit = (
        await this.git(
          ['commit-tree', merged.tree, '-p', base, '-p', pr.head, '-F', '-'],
          message,
        )
      ).trim();
      await this.atomicPush(
        [
          { ref: `refs/heads/${this.baseBranch}`, from: base, to: commit },
          ...(await this.branchDeletions(pr)),
        ],
        branch,
      );
      return commit;
    });
  }

  /** Closes the pull request without merging: deletes the branch and its description. */
  async close(branch: string, decision: DecisionOptions): Promise<void> {
    return this.locked(async () => {
      const base = await this.fetch();
      const pr = await this.describe(branch, base);
      if (!pr) throw this.notFound(branch);
      this.checkHead(pr, decision.head);
      await this.atomicPush(await this.branchDeletions(pr), branch);
    });
  }

  private notFound(branch: string): LocalPullRequestError {
    return new LocalPullRequestError(
      `no open pull request ${branch} (merged, closed, or never opened)`,
      'not-found',
    );
  }

  private checkHead(pr: LocalPullRequest, seen: string) {
    if (pr.head !== seen) {
      throw new LocalPullRequestError(
        `${pr.branch} changed since you looked (now at ${pr.head.slice(0, 12)}, ` +
          `you saw ${seen.slice(0, 12) || 'nothing'}): reload it and review the new changes`,
        'moved',
      );
    }
  }

  /** The ref updates that delete the branch and its description (when it has one). */
  private async branchDeletions(pr: LocalPullRequest) {
    const updates = [
      { ref: `refs/heads/${pr.branch}`, from: pr.head, to: undefined },
    ];
    const description = await this.resolve(descriptionRef(pr.branch));
    if (description) {
      updates.push({
        ref: descriptionRef(pr.branch),
        from: description,
        to: undefined,
      });
    }
    return updates;
  }

  /** One push that applies every update or none, each with a lease on what we saw. */
  private async atomicPush(
    updates: { ref: string; from: string; to: string | undefined }[],
    branch: string,
  ): Promise<void> {
    try {
      await this.git([
        'push',
        '--atomic',
        '--porcelain',
        ...updates.map(u => `--force-with-lease=${u.ref}:${u.from}`),
        'origin',
        ...updates.map(u => `${u.to ?? ''}:${u.ref}`),
      ]);
    } catch (error) {
      const message = (error as Error).message;
      if (/stale info|rejected|non-fast-forward|fetch first/i.test(message)) {
        throw new LocalPullRequestError(
          `${branch} or ${this.baseBranch} moved while this ran: reload and try again`,
          'moved',
        );
      }
      throw error;
    }
  }

  /** The request branches on the remote (fetched), sorted. */
  private async branches(): Promise<string[]> {
    const listing = await this.git([
      'for-each-ref',
      '--format=%(refname)',
      `refs/heads/${BRANCH_PREFIX}`,
    ]);
    return listing
      .split('\n')
      .filter(Boolean)
      .map(ref => ref.slice('refs/heads/'.length))
      .sort();
  }

  /** An open pull request of `branch`, or undefined (no such branch, or merged). */
  private async describe(
    branch: string,
    base: string,
  ): Promise<LocalPullRequest | undefined> {
    if (!branch.startsWith(BRANCH_PREFIX)) return undefined;
    const head = await this.resolve(`refs/heads/${branch}`);
    if (!head) return undefined;
    if (await this.isAncestor(head, base)) return undefined;
    const [date, ...messageLines] = (
      await this.git(['log', '-1', '--format=%cI%n%B', head])
    ).split('\n');
    const message = messageLines.join('\n');
    const trailer = TRAILER.exec(message);
    const description = await this.description(branch);
    const [subject, ...rest] = message.trim().split('\n');
    const merged = await this.mergeTree(base, head);
    return {
      branch,
      baseBranch: this.baseBranch,
      // Without a stored description (a branch pushed by hand): the commit's message.
      title: description?.title ?? subject,
      body:
        description?.body ??
        rest
          .filter(line => !trailer || line.trim() !== trailer[0].trim())
          .join('\n')
          .trim(),
      head,
      ...(trailer
        ? { request: { namespace: trailer[1], name: trailer[2] } }
        : {}),
      updatedAt: date,
      mergeable: merged.clean
        ? { clean: true }
        : { clean: false, conflicts: merged.conflicts },
      files: await this.files(base, head),
    };
  }

  private async description(
    branch: string,
  ): Promise<{ title: string; body: string } | undefined> {
    const ref = await this.resolve(descriptionRef(branch));
    if (!ref) return undefined;
    const title = (await this.git(['log', '-1', '--format=%s', ref])).trim();
    const body = await this.git([
      'cat-file',
      'blob',
      `${ref}:${DESCRIPTION_FILE}`,
    ]);
    return { title, body };
  }

  private async files(
    base: string,
    head: string,
  ): Promise<GpuPullRequestFile[]> {
    const listing = await this.git([
      'diff',
      '--name-status',
      '--no-renames',
      `${base}...${head}`,
    ]);
    const status = { A: 'added', D: 'deleted' } as const;
    return listing
      .split('\n')
      .filter(Boolean)
      .map(line => {
        const [code, file] = line.split('\t');
        return {
          path: file,
          status: status[code as keyof typeof status] ?? 'modified',
        };
      });
  }

  /** git's own merge of head into base, without a work tree (git 2.38+). */
  private async mergeTree(
    base: string,
    head: string,
  ): Promise<
    { clean: true; tree: string } | { clean: false; conflicts: string[] }
  > {
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

  private async isAncestor(commit: string, of: string): Promise<boolean> {
    try {
      await this.git(['merge-base', '--is-ancestor', commit, of]);
      return true;
    } catch {
      return false;
    }
  }

  private async resolve(ref: string): Promise<string | undefined> {
    try {
      return (
        await this.git(['rev-parse', '--verify', '--quiet', `${ref}^{commit}`])
      ).trim();
    } catch {
      return undefined;
    }
  }

  /**
   * Brings the cache up to date with the remote: the base, every request
   * branch and every description (gone ones pruned). Returns the base commit.
   */
  private async fetch(): Promise<string> {
    await this.ensureRepository();
    await this.git([
      'fetch',
      '--quiet',
      '--prune',
      '--no-tags',
      'origin',
      `+refs/heads/${this.baseBranch}:refs/heads/${this.baseBranch}`,
      `+refs/heads/${BRANCH_PREFIX}*:refs/heads/${BRANCH_PREFIX}*`,
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

  private locked<T>(work: () => Promise<T>): Promise<T> {
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

  private async git(args: string[], stdin?: string): Promise<string> {
    try {
      return await runGit(this.gitDir, args, this.env, {
        stdin,
        timeoutMs: this.options.timeoutMs,
      });
    } catch (error) {
      throw this.redactor.redactError(error);
    }
  }
}
