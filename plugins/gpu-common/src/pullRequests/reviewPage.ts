/**
 * Where the app reviews a pull request of the local forge. One rule for
 * the scaffolder's "Pull request" link, the backend's list and the
 * frontend's route: `/gpu/pull-requests/<branch without gpu/>`.
 */

/**
 *  The review pages' route in the app.
 *
 * @public
 */
export const GPU_PULL_REQUESTS_PATH = '/gpu/pull-requests';

import { GPU_BRANCH_PREFIX as BRANCH_PREFIX } from './gpuBranchPrefix';

/** `gpu/ml-chat` → `ml-chat` (the page's id of the branch). */
export function pullRequestId(branch: string): string {
  return branch.startsWith(BRANCH_PREFIX)
    ? branch.slice(BRANCH_PREFIX.length)
    : branch;
}

/**
 *  `ml-chat` → `gpu/ml-chat`.
 *
 * @public
 */
export function pullRequestBranch(id: string): string {
  return `${BRANCH_PREFIX}${id}`;
}

/**
 *  The review page of a branch, under the app's base URL (or app-relative without one).
 *
 * @public
 */
export function pullRequestPageUrl(branch: string, appBaseUrl = ''): string {
  const id = pullRequestId(branch).split('/').map(encodeURIComponent).join('/');
  return `${appBaseUrl.replace(/\/+$/, '')}${GPU_PULL_REQUESTS_PATH}/${id}`;
}
