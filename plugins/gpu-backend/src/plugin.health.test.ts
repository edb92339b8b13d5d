import { execFileSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { mockServices, startTestBackend } from '@backstage/backend-test-utils';
import { catalogServiceMock } from '@backstage/plugin-catalog-node/testUtils';
import {
  createFixtureRemote,
  type FixtureRemote,
} from './__testUtils__/fixtureRemote';
import { schedulerHandle } from './__testUtils__/schedulerHandle';
import { gpuPlugin, INDEX_REFRESH_TASK_ID } from './plugin';

jest.setTimeout(120_000);

describe('gpu backend /api/gpu/health (readiness)', () => {
  let remote: FixtureRemote;
  let temp: string;

  beforeAll(async () => {
    remote = await createFixtureRemote();
    temp = await fs.mkdtemp(path.join(os.tmpdir(), 'gpu-backend-health-'));
  });
  afterAll(async () => {
    await remote?.cleanup();
    if (temp) await fs.rm(temp, { recursive: true, force: true });
  });

  it('answers 503 naming what has not worked yet (catalog, index) and 200 once both have worked once', async () => {
    // The catalog fails as it does on a replica whose migrations lost the race.
    let catalogUp = false;
    const catalog = catalogServiceMock.mock({
      getEntities: async () => {
        if (!catalogUp)
          throw new Error('catalog: relation "refresh_state" does not exist');
        return { items: [] };
      },
    });
    // The repository is not there yet: the refresh at start-up fails.
    const repoUrl = path.join(temp, 'gitops.git');
    const handle = schedulerHandle();
    const backend = await startTestBackend({
      features: [
        gpuPlugin,
        catalog.factory,
        handle.module,
        mockServices.rootConfig.factory({
          data: {
            gpu: {
              gitops: { repoUrl, cacheDir: path.join(temp, 'cache') },
              index: { refresh: '1h' },
            },
          },
        }),
      ],
    });
    const health = () => request(backend.server).get('/api/gpu/health');
    try {
      const first = await health();
      expect(first.status).toBe(503);
      expect(first.body).toEqual({
        status: 'not ready',
        notReady: [
          {
            check: 'catalog',
            reason: 'the catalog has not answered yet (see the backend log)',
          },
          {
            check: 'index',
            reason:
              'the GitOps repository has not been indexed yet (see the backend log)',
          },
        ],
      });

      catalogUp = true;
      const catalogOnly = await health();
      expect(catalogOnly.status).toBe(503);
      expect(catalogOnly.body.notReady).toEqual([
        expect.objectContaining({ check: 'index' }),
      ]);

      // The repository appears; the next refresh indexes it.
      await fs.symlink(remote.url, repoUrl);
      await handle.scheduler().triggerTask(INDEX_REFRESH_TASK_ID);
      const revision = execFileSync('git', ['rev-parse', 'main'], {
        cwd: remote.url,
        encoding: 'utf8',
      }).trim();
      const deadline = Date.now() + 60_000;
      let ready = await health();
      while (ready.status !== 200 && Date.now() < deadline) {
        await new Promise(resolve => setTimeout(resolve, 200));
        ready = await health();
      }
      expect(ready.status).toBe(200);
      expect(ready.body).toEqual({ status: 'ok', revision });

      // Ready once is ready: a catalog that fails later does not take it back.
      catalogUp = false;
      expect((await health()).status).toBe(200);
    } finally {
      await backend.stop();
    }
  });

  it('without gpu.gitops, is ready once the catalog answers', async () => {
    const backend = await startTestBackend({
      features: [
        gpuPlugin,
        catalogServiceMock.factory({ entities: [] }),
        mockServices.rootConfig.factory({ data: {} }),
      ],
    });
    try {
      const res = await request(backend.server).get('/api/gpu/health');
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ status: 'ok' });
    } finally {
      await backend.stop();
    }
  });
});
