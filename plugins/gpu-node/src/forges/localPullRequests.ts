/**
 * Review for the local forge, where a pull request is a pushed `gpu/*`
 * branch: list the open ones with their descriptions (localDescription.ts),
 * show one's diff, merge it into the base branch, or close it.
 *
 * Works on its own bare cache of the remote (localReviewCache.ts) and reads
 * each pull request with localPullRequestReader.ts. Merge and close are one atomic
 * push with a lease on every ref they touch, so a branch or base that moved
 * since the reviewer looked is never merged or deleted unseen.
 *
 * Merging always makes a merge commit (as GitHub's default "Create a merge
 * commit" does): the base's history then says which pull request came in,
 * when, and who merged it. A merge git cannot make on its own is refused with
 * the conflicting files; the gpu backend's updater re-renders open pull
 * requests on a moved base, which resolves the product's own conflicts.
 */
import { descriptionRef } from './localDescription';
import { describePullRequest } from './localPullRequestReader';
import {
  LocalPullRequestError,
  type DecisionOptions,
  type LocalPullRequest,
  type LocalPullRequestsOptions,
  type LocalPullRequestWithDiff,
} from './localPullRequestTypes';
import { LocalReviewCache } from './localReviewCache';

/** A diff larger than this is cut (a review page is no place for megabytes). */
const MAX_DIFF_BYTES = 512 * 1024;

/** @public */
export class LocalPullRequests {
  readonly baseBranch: string;
  private readonly cache: LocalReviewCache;

  constructor(options: LocalPullRequestsOptions) {
    this.baseBranch = options.baseBranch ?? 'main';
    this.cache = new LocalReviewCache(options, this.baseBranch);
  }

  /** The open pull requests (request branches not merged into the base), by branch name. */
  async list(): Promise<LocalPullRequest[]> {
    return this.cache.locked(async () => {
      const base = await this.cache.fetch();
      const open: LocalPullRequest[] = [];
      for (const branch of await this.cache.branches()) {
        const pr = await describePullRequest(this.cache, branch, base);
        if (pr) open.push(pr);
      }
      return open;
    });
  }

  /** One open pull request with its diff against the base. */
  async get(branch: string): Promise<LocalPullRequestWithDiff> {
    return this.cache.locked(async () => {
      const base = await this.cache.fetch();
      const pr = await describePullRequest(this.cache, branch, base);
      if (!pr) throw this.notFound(branch);
      const full = await this.cache.git([
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
    return this.cache.locked(async () => {
      const base = await this.cache.fetch();
      const pr = await describePullRequest(this.cache, branch, base);
      if (!pr) throw this.notFound(branch);
      this.checkHead(pr, decision.head);
      const merged = await this.cache.mergeTree(base, pr.head);
      if (!merged.clean) {
        throw new LocalPullRequestError(
          {
            changed:
              `${branch} does not merge cleanly into ${this.baseBranch}: ` +
              `${merged.conflicts.join(', ')} changed on both sides since it was rendered`,
            todo:
              'the gpu backend re-renders open GPU pull requests on the new base within a minute ' +
              '(or run `gpu-gitops update`); reload then, review the new changes and merge',
          },
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
        await this.cache.git(
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
    return this.cache.locked(async () => {
      const base = await this.cache.fetch();
      const pr = await describePullRequest(this.cache, branch, base);
      if (!pr) throw this.notFound(branch);
      this.checkHead(pr, decision.head);
      await this.atomicPush(await this.branchDeletions(pr), branch);
    });
  }

  private notFound(branch: string): LocalPullRequestError {
    return new LocalPullRequestError(
      {
        changed: `no open pull request ${branch} (merged, closed, or never opened)`,
        todo: 'reload the list of pull requests',
      },
      'not-found',
    );
  }

  private checkHead(pr: LocalPullRequest, seen: string) {
    if (pr.head !== seen) {
      throw new LocalPullRequestError(
        {
          changed:
            `${pr.branch} changed since you looked (now at ${pr.head.slice(0, 12)}, ` +
            `you saw ${seen.slice(0, 12) || 'nothing'})`,
          todo: 'reload it and review the new changes',
        },
        'moved',
      );
    }
  }

  /** The ref updates that delete the branch and its description (when it has one). */
  private async branchDeletions(pr: LocalPullRequest) {
    const updates = [
      { ref: `refs/heads/${pr.branch}`, from: pr.head, to: undefined },
    ];
    const description = await this.cache.resolve(descriptionRef(pr.branch));
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
      await this.cache.git([
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
          {
            changed: `${branch} or ${this.baseBranch} moved while this ran`,
            todo: 'reload and try again',
          },
          'moved',
        );
      }
      throw error;
    }
  }
}
