/**
 * The pull request and the page setup the PullRequestPage tests share (the
 * denied test is a file of its own: usePermission caches answers).
 */
import {
  mockApis,
  renderInTestApp,
  TestApiProvider,
} from '@backstage/test-utils';
import type { Entity } from '@backstage/catalog-model';
import { catalogApiRef, entityRouteRef } from '@backstage/plugin-catalog-react';
import { catalogApiMock } from '@backstage/plugin-catalog-react/testUtils';
import { permissionApiRef } from '@backstage/plugin-permission-react';
import { AuthorizeResult } from '@backstage/plugin-permission-common';
import type {
  GpuPullRequest,
  GpuPullRequestDetail,
} from '@gpu-gitops/plugin-gpu-common';
import type { GpuApi } from '../api/GpuApi';
import { gpuApiRef } from '../api/GpuApi';
import { PullRequestPage } from '../components/PullRequestPage';
import { fakeGpuApi } from './fakeGpuApi';

export const HEAD = 'a'.repeat(40);

export const chat: GpuPullRequest = {
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

export const detail: GpuPullRequestDetail = {
  ...chat,
  diff: 'diff --git a/requests/ml/chat.yaml b/requests/ml/chat.yaml\n--- /dev/null\n+++ b/requests/ml/chat.yaml\n@@ -0,0 +1 @@\n+kind: GpuRequest\n',
  diffTruncated: false,
};

/** Renders the page at `path` over a fake API, allowing the permissions `allow` names (all by default). */
export async function renderPage(
  path: string,
  api: Partial<GpuApi>,
  allow: (name: string) => boolean = () => true,
  entities: Entity[] = [],
) {
  await renderInTestApp(
    <TestApiProvider
      apis={[
        [gpuApiRef, fakeGpuApi(api)],
        [catalogApiRef, catalogApiMock({ entities })],
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
    {
      routeEntries: [path],
      mountedRoutes: { '/catalog/:namespace/:kind/:name': entityRouteRef },
    },
  );
}
