/**
 * What a pull request of the local forge is, the options of its reviewer,
 * and the refusals a reviewer reads.
 */
import type {
  GpuPullRequestFile,
  GpuPullRequestMergeability,
} from '@gpu-gitops/plugin-gpu-common';
import type { GitAuth } from '../git/auth';
import type { GitAuthor } from '../git/GitOpsRepository';
import type { Redactor } from '../redact';

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
  /** What changed, and what the reviewer does now: the message in two parts, for a page. */
  readonly changed: string;
  readonly todo: string;

  constructor(
    advice: { changed: string; todo: string },
    readonly kind: LocalPullRequestErrorKind,
    /** For `conflict`: the files git cannot merge. */
    readonly conflicts: string[] = [],
  ) {
    super(`${advice.changed}: ${advice.todo}`);
    this.name = 'LocalPullRequestError';
    this.changed = advice.changed;
    this.todo = advice.todo;
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
