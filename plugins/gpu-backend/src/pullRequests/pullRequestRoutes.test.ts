import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import {
  coreServices,
  createServiceFactory,
} from '@backstage/backend-plugin-api';
import {
  mockCredentials,
  mockServices,
  startTestBackend,
} from '@backstage/backend-test-utils';
import type { Entity } from '@backstage/catalog-model';
import { catalogServiceMock } from '@backstage/plugin-catalog-node/testUtils';
import { AuthorizeResult } from '@backstage/plugin-permission-common';
import {
  builtinCatalog,
  parseGpuRequest,
  resolveClusterProfile,
} from '@gpu-gitops/plugin-gpu-common';
import { publishGpuRequest } from '@gpu-gitops/plugin-gpu-node';
import { simpleGit } from 'simple-git';
import {
  createFixtureRemote,
  type FixtureRemote,
} from '../__testUtils__/fixtureRemote';
import { gpuPlugin } from '../plugin';

jest.setTimeout(120_000);

const cluster = resolveClusterProfile({ name: 'dev' });
const APP = 'http://localhost:3000';

const component = (name: string): Entity => ({
  apiVersion: 'backstage.io/v1alpha1',
  kind: 'Component',
  metadata: {
    name,
    namespace: 'default',
    annotations: { 'backstage.io/kubernetes-id': name },
  },
  spec: { type: 'service', lifecycle: 'production', owner: 'ml-platform' },
});

/** Two time-sliced T4 requests: both add to the same pool, so they conflict once one is merged. */
const requestFor = (name: string) =>
  parseGpuRequest({
    apiVersion: 'gpu.backstage.io/v1alpha1',
    kind: 'GpuRequest',
    metadata: { name, namespace: 'ml' },
    spec: {
      owner: 'group:default/ml-platform',
      gpu: { model: 't4', sharing: 'time-slicing', replicas: 2, vramGiB: 3 },
      workload: { image: `ghcr.io/acme/${name}:1.0.0` },
    },
  });

/**
 * The scheduler as Backstage runs a local task (backend-defaults 0.18.0,
 * LocalTaskWorker.trigger): a trigger starts the run and returns at once; the
 * test utilities' mock would wait for the run to end.
 */
const schedulerThatTriggersInTheBackground = createServiceFactory({
  service: coreServices.scheduler,
  deps: {},
  factory: () => {
    const scheduler = mockServices.scheduler();
    const runTask = scheduler.triggerTask.bind(scheduler);
    scheduler.triggerTask = async (id: string) => {
      runTask(id).catch(() => undefined);
    };
    return scheduler;
  },
});

describe('the pull-request API on the local forge (real backend, real bare repository, permissions)', () => {
  let remote: FixtureRemote;
  let temp: string;
  const published = new Map<string, { body: string; commit: string }>();

  beforeEach(async () => {
    remote = await createFixtureRemote();
    temp = await fs.mkdtemp(path.join(os.tmpdir(), 'gpu-backend-prs-'));
    for (const name of ['chat', 'summary']) {
      const result = await publishGpuRequest({
        request: requestFor(name),
        cluster,
        catalog: builtinCatalog,
        repoUrl: remote.url,
        forge: 'local',
        cacheDir: path.join(temp, 'publisher-cache'),
      });
      published.set(name, { body: result.body, commit: result.commit! });
    }
  });
  afterEach(async () => {
    await remote?.cleanup();
    if (temp) await fs.rm(temp, { recursive: true, force: true });
  });

  const authorize = jest.fn();
  function start(result: AuthorizeResult.ALLOW | AuthorizeResult.DENY) {
    authorize.mockReset();
    authorize.mockImplementation(async (requests: unknown[]) =>
      requests.map(() => ({ result })),
    );
    return startTestBackend({
      features: [
        gpuPlugin,
        schedulerThatTriggersInTheBackground,
        catalogServiceMock.factory({
          entities: ['chat', 'summary'].map(component),
        }),
        mockServices.permissions.mock({ authorize }).factory,
        mockServices.rootConfig.factory({
          data: {
            app: { baseUrl: APP },
            gpu: {
              gitops: {
                repoUrl: remote.url,
                baseBranch: 'main',
                cacheDir: path.join(temp, 'cache'),
                updatePullRequests: false,
              },
              clusters: { default: 'dev', profiles: { dev: {} } },
              index: { refresh: '1h' },
            },
          },
        }),
      ],
    });
  }

  const mainOf = async () =>
    (await simpleGit(remote.url).raw(['rev-parse', 'main'])).trim();
  const branchesOf = async () =>
    (
      await simpleGit(remote.url).raw([
        'for-each-ref',
        '--format=%(refname:short)',
        'refs/heads/gpu',
      ])
    )
      .trim()
      .split('\n')
      .filter(Boolean);

  it('lists the open pull requests with the description the product wrote and a link to the review page, per entity too', async () => {
    const backend = await start(AuthorizeResult.ALLOW);
    const all = await request(backend.server).get('/api/gpu/pull-requests');
    expect(all.status).toBe(200);
    expect(all.body.forge).toBe('local');
    expect(all.body.reviewInApp).toBe(true);
    expect(
      all.body.pullRequests.map((p: { branch: string }) => p.branch),
    ).toEqual(['gpu/ml-chat', 'gpu/ml-summary']);
    const [chat] = all.body.pullRequests;
    expect(chat).toMatchObject({
      url: `${APP}/gpu/pull-requests/ml-chat`,
      body: published.get('chat')!.body,
      head: published.get('chat')!.commit,
      request: { namespace: 'ml', name: 'chat' },
      mergeable: { clean: true },
    });

    const mine = await request(backend.server)
      .get('/api/gpu/pull-requests')
      .query({ entityRef: 'component:default/chat' });
    expect(
      mine.body.pullRequests.map((p: { branch: string }) => p.branch),
    ).toEqual(['gpu/ml-chat']);
    const unknown = await request(backend.server)
      .get('/api/gpu/pull-requests')
      .query({ entityRef: 'component:default/nobody' });
    expect(unknown.status).toBe(404);

    const detail = await request(backend.server).get(
      '/api/gpu/pull-requests/ml-chat',
    );
    expect(detail.status).toBe(200);
    expect(detail.body.diff).toContain('+++ b/requests/ml/chat.yaml');
    await backend.stop();
  });

  it('merges for a user the policy allows: main gets the merge, the branch is gone, and the allocation read right after shows it', async () => {
    const backend = await start(AuthorizeResult.ALLOW);
    const before = await request(backend.server)
      .get('/api/gpu/allocation')
      .query({ entityRef: 'component:default/chat' });
    expect(before.body.allocations).toEqual([]);

    const merged = await request(backend.server)
      .post('/api/gpu/pull-requests/ml-chat/merge')
      .set('Authorization', mockCredentials.user.header('user:default/guest'))
      .send({ head: published.get('chat')!.commit });
    expect(merged.status).toBe(200);
    expect(merged.body).toEqual({
      branch: 'gpu/ml-chat',
      baseBranch: 'main',
      commit: await mainOf(),
      indexed: true,
    });
    expect(authorize).toHaveBeenCalledWith(
      [
        {
          permission: expect.objectContaining({
            name: 'gpu.pullRequest.merge',
          }),
        },
      ],
      {
        credentials: expect.objectContaining({
          principal: expect.objectContaining({
            userEntityRef: 'user:default/guest',
          }),
        }),
      },
    );
    expect(await branchesOf()).toEqual(['gpu/ml-summary']);
    expect(
      await simpleGit(remote.url).raw(['log', '-1', '--format=%B', 'main']),
    ).toContain('Merged-by: user:default/guest');

    // The merge answered once the index had read it: the card's API, asked
    // next, shows the request at the merge commit.
    const after = await request(backend.server)
      .get('/api/gpu/allocation')
      .query({ entityRef: 'component:default/chat' });
    expect(after.body.allocations.map((a: { id: string }) => a.id)).toEqual([
      'ml/chat',
    ]);
    expect(after.body.revision).toBe(merged.body.commit);

    const open = await request(backend.server).get('/api/gpu/pull-requests');
    expect(
      open.body.pullRequests.map((p: { branch: string }) => p.branch),
    ).toEqual(['gpu/ml-summary']);
    await backend.stop();
  });

  it('refuses a merge that does not merge cleanly with 409 naming the files, and one of a head the reviewer did not see', async () => {
    const backend = await start(AuthorizeResult.ALLOW);
    const merge = (id: string, head: string) =>
      request(backend.server)
        .post(`/api/gpu/pull-requests/${id}/merge`)
        .send({ head });
    expect((await merge('ml-chat', published.get('chat')!.commit)).status).toBe(
      200,
    );
    const main = await mainOf();

    // Both added to the T4 pool's ledger line: git cannot merge the second.
    const conflict = await merge(
      'ml-summary',
      published.get('summary')!.commit,
    );
    expect(conflict.status).toBe(409);
    expect(conflict.body.error.message).toMatch(
      /^gpu\/ml-summary does not merge cleanly into main: .*clusters\/dev\/gpu\/nodepools\/.*\.yaml/,
    );
    // What changed and what to do, apart, for the page to show as they are.
    const refusal = conflict.body.error.refusal;
    expect(refusal).toEqual({
      kind: 'conflict',
      changed: expect.stringMatching(
        /^gpu\/ml-summary does not merge cleanly into main: .* changed on both sides since it was rendered$/,
      ),
      todo: expect.stringContaining('re-renders open GPU pull requests'),
      conflicts: [expect.stringMatching(/^clusters\/dev\/gpu\/nodepools\//)],
    });
    expect(conflict.body.error.message).toBe(
      `${refusal.changed}: ${refusal.todo}`,
    );
    const stale = await merge('ml-summary', '0'.repeat(40));
    expect(stale.status).toBe(409);
    expect(stale.body.error.message).toContain('changed since you looked');
    expect(stale.body.error.refusal).toEqual({
      kind: 'moved',
      changed: expect.stringMatching(
        /^gpu\/ml-summary changed since you looked \(now at [0-9a-f]{12}, you saw 000000000000\)$/,
      ),
      todo: 'reload it and review the new changes',
      conflicts: [],
    });
    const missing = await merge('ml-nothing', '0'.repeat(40));
    expect(missing.status).toBe(404);
    const bad = await merge('ml-summary', 'HEAD');
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toContain('body.head');

    expect(await mainOf()).toBe(main);
    expect(await branchesOf()).toEqual(['gpu/ml-summary']);
    await backend.stop();
  });

  it('denies merge and close to a user the policy does not allow; nothing changes', async () => {
    const backend = await start(AuthorizeResult.DENY);
    const main = await mainOf();
    for (const action of ['merge', 'close']) {
      const res = await request(backend.server)
        .post(`/api/gpu/pull-requests/ml-chat/${action}`)
        .set('Authorization', mockCredentials.user.header('user:default/dev'))
        .send({ head: published.get('chat')!.commit });
      expect(res.status).toBe(403);
      expect(res.body.error.message).toBe(
        `user:default/dev may not ${action} GPU pull requests (permission gpu.pullRequest.${action})`,
      );
    }
    expect(await mainOf()).toBe(main);
    expect(await branchesOf()).toEqual(['gpu/ml-chat', 'gpu/ml-summary']);
    // Reading stays open to every signed-in user.
    const list = await request(backend.server).get('/api/gpu/pull-requests');
    expect(list.body.pullRequests).toHaveLength(2);
    await backend.stop();
  });

  it('closes for an allowed user: the branch is gone, main untouched', async () => {
    const backend = await start(AuthorizeResult.ALLOW);
    const main = await mainOf();
    const res = await request(backend.server)
      .post('/api/gpu/pull-requests/ml-summary/close')
      .send({ head: published.get('summary')!.commit });
    expect(res.status).toBe(204);
    expect(authorize.mock.calls[0][0][0].permission.name).toBe(
      'gpu.pullRequest.close',
    );
    expect(await mainOf()).toBe(main);
    expect(await branchesOf()).toEqual(['gpu/ml-chat']);
    await backend.stop();
  });
});

describe('the pull-request API without gpu.gitops', () => {
  it('lists none (every card asks), and has no pull request to show', async () => {
    const backend = await startTestBackend({
      features: [
        gpuPlugin,
        catalogServiceMock.factory({ entities: [component('chat')] }),
        mockServices.rootConfig.factory({ data: {} }),
      ],
    });
    const list = await request(backend.server)
      .get('/api/gpu/pull-requests')
      .query({ entityRef: 'component:default/chat' });
    expect(list.status).toBe(200);
    expect(list.body).toEqual({
      forge: 'local',
      reviewInApp: false,
      pullRequests: [],
    });
    const one = await request(backend.server).get(
      '/api/gpu/pull-requests/ml-chat',
    );
    expect(one.status).toBe(404);
    expect(one.body.error.message).toContain('gpu.gitops is not configured');
    await backend.stop();
  });
});
