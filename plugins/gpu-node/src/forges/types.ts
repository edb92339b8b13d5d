/**
 * One interface for every place a pull request can live. `local` is the
 * embedded default (a plain git remote: the pushed branch is the PR).
 *
 * @public
 */
export type ForgeKind = 'local' | 'github' | 'gitlab' | 'gitea';

/** @public */
export interface PullRequestInput {
  /** Remote repository URL as configured (never contains credentials). */
  repoUrl: string;
  baseBranch: string;
  headBranch: string;
  title: string;
  body: string;
  draft?: boolean;
  labels?: string[];
  reviewers?: string[];
  /**
   * Whether `headBranch` already existed on the remote before this run pushed
   * it. Optional; only the `local` forge (which has no API to ask) uses it to
   * report `updated`.
   */
  headBranchExisted?: boolean;
}

/** @public */
export interface PullRequestResult {
  /** Web URL of the PR / MR; for the local forge the branch (`file:///…/gitops.git#<branch>` for a local repository). */
  url: string;
  /** Forge number (PR number, MR iid); undefined for the local forge. */
  number?: number;
  /** True when an existing open PR for the branch was updated instead of created. */
  updated: boolean;
}

/**
 *  Which pull request: the repository and its head branch.
 *
 * @public
 */
export interface PullRequestRef {
  repoUrl: string;
  baseBranch: string;
  headBranch: string;
}

/** @public */
export interface Forge {
  readonly kind: ForgeKind;
  /** Create the PR for `headBranch`, or update the open one that already exists. */
  createOrUpdatePullRequest(
    input: PullRequestInput,
  ): Promise<PullRequestResult>;
  /**
   * The open PR whose head is `headBranch`, or undefined (none, or merged or
   * closed: a person decided on it, so the product leaves its branch alone).
   */
  findOpenPullRequest(
    ref: PullRequestRef,
  ): Promise<{ url: string; number?: number } | undefined>;
}
