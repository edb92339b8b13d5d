import { screen } from '@testing-library/react';
import { detail, renderPage } from '../../__testUtils__/pullRequestPage';

// A file of its own: usePermission caches answers (SWR) for the module's lifetime.
describe('PullRequestPage for a user the permission policy does not allow', () => {
  it('disables Merge and Close for a user the permission policy does not allow, and says why', async () => {
    await renderPage(
      '/ml-chat',
      { getPullRequest: async () => detail },
      () => false,
    );
    expect(
      await screen.findByText(
        'You may not merge or close GPU pull requests (permissions gpu.pullRequest.merge, gpu.pullRequest.close).',
      ),
    ).toBeVisible();
    expect(
      screen.getByRole('button', { name: 'Merge into main' }),
    ).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Close' })).toBeDisabled();
  });
});
