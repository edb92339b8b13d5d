/**
 * The GPU plugin's permissions (Backstage permission framework): who may
 * decide on a GPU pull request in the app's review page of the local forge.
 * The backend authorizes every merge and close with them; the frontend asks
 * the same question to hide the buttons a person may not use. A permission
 * policy decides (e.g. allow the platform team); with the permission
 * framework off (`permission.enabled` unset) every signed-in user may.
 */
import type {
  BasicPermission,
  PermissionAttributes,
} from '@backstage/plugin-permission-common';

/**
 * A basic permission, the object `createPermission` of
 * @backstage/plugin-permission-common 0.9 returns for one without a
 * resource type (src/permissions/createPermission.ts): `{ type: 'basic',
 * name, attributes }` (permissions.test.ts holds the two equal). Built here
 * because that package's entry also loads its PermissionClient with
 * cross-fetch and node-fetch, and everything that imports this package (the
 * CLI's `plan`, the form) would pay for an HTTP client it never uses.
 */
function basicPermission(
  name: string,
  attributes: PermissionAttributes,
): BasicPermission {
  return { type: 'basic', name, attributes };
}

/**
 *  Merge a GPU pull request into the GitOps repository's base branch.
 *
 * @public
 */
export const gpuPullRequestMergePermission = basicPermission(
  'gpu.pullRequest.merge',
  { action: 'update' },
);

/**
 *  Close a GPU pull request without merging it (its branch is deleted).
 *
 * @public
 */
export const gpuPullRequestClosePermission = basicPermission(
  'gpu.pullRequest.close',
  { action: 'delete' },
);

/**
 *  Every permission of the GPU plugin, for the backend's permissions registry.
 *
 * @public
 */
export const gpuPermissions = [
  gpuPullRequestMergePermission,
  gpuPullRequestClosePermission,
];
