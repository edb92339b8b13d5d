import { createPermission } from '@backstage/plugin-permission-common';
import {
  gpuPermissions,
  gpuPullRequestClosePermission,
  gpuPullRequestMergePermission,
} from './permissions';

describe('the GPU permissions', () => {
  it('are what the permission framework’s createPermission makes of them', () => {
    expect(gpuPullRequestMergePermission).toEqual(
      createPermission({
        name: 'gpu.pullRequest.merge',
        attributes: { action: 'update' },
      }),
    );
    expect(gpuPullRequestClosePermission).toEqual(
      createPermission({
        name: 'gpu.pullRequest.close',
        attributes: { action: 'delete' },
      }),
    );
    expect(gpuPermissions.map(p => p.name)).toEqual([
      'gpu.pullRequest.merge',
      'gpu.pullRequest.close',
    ]);
  });
});
