import {
  GPU_BRANCH_PREFIX,
  pullRequestBranch,
  pullRequestPageUrl,
} from '@gpu-gitops/plugin-gpu-common';
import {
  bootstrapBranchName,
  importBranchName,
  releaseBranchName,
  requestBranchName,
} from './branchName';

describe('branch names', () => {
  it('put every branch the product pushes under the one prefix the review page strips', () => {
    const branches = [
      requestBranchName('ml', 'chat'),
      releaseBranchName('ml', 'chat'),
      importBranchName('prod-eks'),
      bootstrapBranchName('prod-eks'),
    ];
    expect(branches).toEqual([
      'gpu/ml-chat',
      'gpu/release-ml-chat',
      'gpu/import-prod-eks',
      'gpu/bootstrap-prod-eks',
    ]);
    for (const branch of branches) {
      const id = branch.slice(GPU_BRANCH_PREFIX.length);
      expect(pullRequestPageUrl(branch)).toBe(`/gpu/pull-requests/${id}`);
      expect(pullRequestBranch(id)).toBe(branch);
    }
  });
});
