import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { simpleGit } from 'simple-git';
import { mockServices, startTestBackend } from '@backstage/backend-test-utils';
import { catalogServiceMock } from '@backstage/plugin-catalog-node/testUtils';
import gpuPlugin from '@gpu-gitops/plugin-gpu-backend';
import {
  builtinCatalog,
  resolveClusterProfile,
  type GpuRequest,
} from '@gpu-gitops/plugin-gpu-common';
import { publishGpuRequest } from '@gpu-gitops/plugin-gpu-node';
import { componentEntity } from '../componentEntity';
import { fixtures, seedBareRepo, tempDir } from '../gitopsFixtures';

export type Published = Awaited<ReturnType<typeof publishGpuRequest>>;

/**
 * The project fixture on a bare remote, with `requests` filed one by one on
 * cluster `dev` (profile `profile`) through the local forge, each merged by a
 * reviewer before the next is filed — what a team's week of requests leaves
 * on main. Returns each request's publish result by name.
 */
export async function mergeRequestsOnFixture(
  requests: GpuRequest[],
  profile: { migStrategy?: 'single' | 'mixed' } = {},
): Promise<{ remote: string; published: Map<string, Published> }> {
  const cluster = resolveClusterProfile({ name: 'dev', ...profile });
  const remote = await seedBareRepo(fixtures.gitopsRepo);
  const work = path.join(tempDir('gpu-merged-requests-'), 'work');
  await simpleGit().clone(remote, work);
  const git = simpleGit(work)
    .addConfig('user.name', 'reviewer')
    .addConfig('user.email', 'reviewer@example.invalid');
  const cacheDir = tempDir('gpu-merged-requests-cache-');
  const published = new Map<string, Published>();
  for (const request of requests) {
    const result = await publishGpuRequest({
      request,
      cluster,
      catalog: builtinCatalog,
      repoUrl: remote,
      forge: 'local',
      cacheDir,
    });
    published.set(request.metadata.name, result);
    await git.fetch('origin', result.branch);
    await git.merge(['--ff-only', 'FETCH_HEAD']);
    await git.push('origin', 'main');
  }
  return { remote, published };
}

/**
 * The real gpu backend over `remote`'s main branch, with a catalog of one
 * component per name: its API's base URL and how to stop it.
 */
export async function startGpuBackend(options: {
  remote: string;
  components: string[];
  profile?: { migStrategy?: 'single' | 'mixed' };
}): Promise<{ baseUrl: string; stop: () => Promise<void> }> {
  const backend = await startTestBackend({
    features: [
      gpuPlugin,
      catalogServiceMock.factory({
        entities: options.components.map(componentEntity),
      }),
      mockServices.rootConfig.factory({
        data: {
          gpu: {
            gitops: {
              repoUrl: options.remote,
              baseBranch: 'main',
              cacheDir: tempDir('gpu-backend-index-'),
            },
            clusters: {
              default: 'dev',
              profiles: { dev: { ...options.profile } },
            },
            index: { refresh: '1h' },
          },
        },
      }),
    ],
  });
  const { port } = backend.server.address() as AddressInfo;
  return {
    baseUrl: `http://localhost:${port}/api/gpu`,
    stop: () => backend.stop(),
  };
}
