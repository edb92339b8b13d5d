/**
 * The product's branches: every branch it pushes (a request, its release, a
 * cluster's import or bootstrap) starts with this prefix, and the local forge
 * treats exactly these as pull requests; the review page's id of a branch is
 * the branch without it. gpu-node's `git/branchName.ts` names each kind of
 * branch with it.
 *
 * @public
 */
export const GPU_BRANCH_PREFIX = 'gpu/';
