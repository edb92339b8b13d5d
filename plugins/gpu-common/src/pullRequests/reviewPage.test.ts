import {
  pullRequestBranch,
  pullRequestId,
  pullRequestPageUrl,
} from './reviewPage';

describe('the review page of a local pull request', () => {
  it('is /gpu/pull-requests/<branch without gpu/> under the app', () => {
    expect(pullRequestPageUrl('gpu/ml-chat', 'http://localhost:3000/')).toBe(
      'http://localhost:3000/gpu/pull-requests/ml-chat',
    );
    expect(pullRequestPageUrl('gpu/ml-chat')).toBe(
      '/gpu/pull-requests/ml-chat',
    );
  });

  it('round-trips the branch through the page id', () => {
    for (const branch of ['gpu/ml-chat', 'gpu/team/odd name']) {
      expect(pullRequestBranch(pullRequestId(branch))).toBe(branch);
    }
    expect(pullRequestPageUrl('gpu/team/odd name')).toBe(
      '/gpu/pull-requests/team/odd%20name',
    );
  });
});
