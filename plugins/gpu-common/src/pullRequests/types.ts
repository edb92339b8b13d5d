/**
 * The HTTP contract of the gpu backend's pull-request API (`/api/gpu/pull-requests`),
 * shared by the backend and the frontend's review page and card.
 */

/**
 *  How merging a pull request into its base would go.
 *
 * @public
 */
export type GpuPullRequestMergeability =
  | { clean: true }
  /** The files git cannot merge on its own. */
  | { clean: false; conflicts: string[] };

/** @public */
export interface GpuPullRequestFile {
  path: string;
  status: 'added' | 'modified' | 'deleted';
}

/**
 *  One open GPU pull request (a `gpu/*` branch with its description).
 *
 * @public
 */
export interface GpuPullRequest {
  /** The head branch, `gpu/<namespace>-<name>`. */
  branch: string;
  baseBranch: string;
  title: string;
  /** The description (markdown) the product wrote for it. */
  body: string;
  /** Where a person reviews it: the app's review page (local forge) or the forge's page. */
  url: string;
  /** The head commit. */
  head: string;
  /** The request the branch carries (its `Gpu-Request:` trailer). */
  request?: { namespace: string; name: string };
  /** When the head commit was made (ISO 8601). */
  updatedAt?: string;
  /** Local forge only: whether it merges cleanly into the current base. */
  mergeable?: GpuPullRequestMergeability;
  /** Local forge only: the files it changes. */
  files?: GpuPullRequestFile[];
}

/** @public */
export interface GpuPullRequestsResponse {
  /** `gpu.gitops.forge`. */
  forge: 'local' | 'github' | 'gitlab' | 'gitea';
  /** True when the app reviews, merges and closes them (the local forge). */
  reviewInApp: boolean;
  pullRequests: GpuPullRequest[];
}

/**
 *  One pull request with its unified diff (local forge).
 *
 * @public
 */
export interface GpuPullRequestDetail extends GpuPullRequest {
  diff: string;
  /** The diff was cut at the size limit. */
  diffTruncated: boolean;
}

/** Body of a merge or close: the head the reviewer saw, so a newer push is never merged unseen. */
export interface GpuPullRequestDecision {
  head: string;
}

/** @public */
export interface GpuPullRequestMergeResponse {
  branch: string;
  baseBranch: string;
  /** The merge commit now at the head of the base branch. */
  commit: string;
  /**
   * True when the backend's allocation index has read the merge, so the
   * allocation and pools read next show it; false while it is still updating
   * (the index's next refresh shows it).
   */
  indexed: boolean;
}

/**
 * Why a merge or close was refused, in two parts a page shows as they are:
 * what changed and what to do. The backend's 404 / 409 answers carry it as
 * `error.refusal` beside Backstage's `error.name` and `error.message` (the
 * two parts joined).
 *
 * @public
 */
export interface GpuPullRequestRefusal {
  /** `conflict`: it no longer merges cleanly; `moved`: it or the base changed since the reviewer looked; `not-found`: no such open pull request. */
  kind: 'conflict' | 'moved' | 'not-found';
  /** What changed, e.g. `gpu/ml-chat changed since you looked (now at 1a2b3c4d5e6f, you saw 0f9e8d7c6b5a)`. */
  changed: string;
  /** What to do now, e.g. `reload it and review the new changes`. */
  todo: string;
  /** For `conflict`: the files changed on both sides. */
  conflicts: string[];
}

/**
 * The body of a refused merge or close (HTTP 404 or 409).
 *
 * @public
 */
export interface GpuPullRequestRefusalResponse {
  error: { name: string; message: string; refusal: GpuPullRequestRefusal };
}
