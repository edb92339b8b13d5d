/**
 * The GPU plugin's permissions (Backstage permission framework): who may
 * decide on a GPU pull request in the app's review page of the local forge.
 * The backend authorizes every merge and close with them; the frontend asks
 * the same question to hide the buttons a person may not use. A permission
 * policy decides (e.g. allow the platform team); with the permission
 * framework off (`permission.enabled` unset) every signed-in user may.
 */
import { createPermission } from '@backstage/plugin-permission-common';

/**
 *  Merge a GPU pull request into the GitOps repository's base branch.
 *
 * @public
 */
export const gpuPullRequestMergePermission = createPermission({
  name: 'gpu.pullRequest.merge',
  attributes: { action: 'update' },
});

/**
 *  Close a GPU pull request without merging it (its branch is deleted).
 *
 * @public
 */
export const gpuPullRequestClosePermission = createPermission({
  name: 'gpu.pullRequest.close',
  attributes: { action: 'delete' },
});

/**
 *  Every permission of the GPU plugin, for the backend's permissions registry.
 *
 * @public
 */
export const gpuPermissions = [
  gpuPullRequestMergePermission,
  gpuPullRequestClosePermission,
];
