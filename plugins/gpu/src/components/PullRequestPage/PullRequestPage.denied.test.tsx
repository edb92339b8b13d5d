import {
  mockApis,
  renderInTestApp,
  TestApiProvider,
} from '@backstage/test-utils';
import { permissionApiRef } from '@backstage/plugin-permission-react';
import { AuthorizeResult } from '@backstage/plugin-permission-common';
import type {
  GpuPullRequest,
  GpuPullRequestDetail,
} from '@gpu-gitops/plugin-gpu-common';
import { screen } from '@testing-library/react';
import type { GpuApi } from '../../api/GpuApi';
import { gpuApiRef } from '../../api/GpuApi';
import { fakeGpuApi } from '../../__testUtils__/fakeGpuApi';
import { PullRequestPage } from './PullRequestPage';

const HEAD = 'a'.repeat(40);

const chat: GpuPullRequest = {
  branch: 'gpu/ml-chat',
  baseBranch: 'main',
  title: 'GPU: ml/chat — 2 × T4 time-sliced',
  body: '## Capacity\n\n| replicas | 2 |\n| --- | --- |\n',
  url: 'http://localhost:3000/gpu/pull-requests/ml-chat',
  head: HEAD,
  request: { namespace: 'ml', name: 'chat' },
  updatedAt: '2026-01-02T03:04:05Z',
  mergeable: { clean: true },
  files: [{ path: 'requests/ml/chat.yaml', status: 'added' }],
};

const detail: GpuPullRequestDetail = {
  ...chat,
  diff: 'diff --git a/requests/ml/chat.yaml b/requests/ml/chat.yaml\n--- /dev/null\n+++ b/requests/ml/chat.yaml\n@@ -0,0 +1 @@\n+kind: GpuRequest\n',
  diffTruncated: false,
};

async function renderPage(
  path: string,
  api: Partial<GpuApi>,
  allow: (name: string) => boolean = () => true,
) {
  await renderInTestApp(
    <TestApiProvider
      apis={[
        [gpuApiRef, fakeGpuApi(api)],
        [
          permissionApiRef,
          mockApis.permission({
            authorize: request =>
              allow(request.permission.name)
                ? AuthorizeResult.ALLOW
                : AuthorizeResult.DENY,
          }),
        ],
      ]}
    >
      <PullRequestPage />
    </TestApiProvider>,
    { routeEntries: [path], mountedRoutes: {} },
  );
}

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
