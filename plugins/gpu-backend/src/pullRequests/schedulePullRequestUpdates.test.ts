import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type {
  SchedulerServiceTaskInvocationDefinition,
  SchedulerServiceTaskScheduleDefinition,
} from '@backstage/backend-plugin-api';
import { mockServices } from '@backstage/backend-test-utils';
import { ConfigReader } from '@backstage/config';
import { ScmIntegrations } from '@backstage/integration';
import { simpleGit } from 'simple-git';
import {
  builtinCatalog,
  parseGpuRequest,
  resolveClusterProfile,
} from '@gpu-gitops/plugin-gpu-common';
import { publishGpuRequest } from '@gpu-gitops/plugin-gpu-node';
import {
  createFixtureRemote,
  PLATFORM_FIXTURE_REPO,
  type FixtureRemote,
} from '../__testUtils__/fixtureRemote';
import { usePostgresServer } from '../__testUtils__/postgresServer';
import { readGpuBackendConfig } from '../config/readGpuBackendConfig';
import {
  PULL_REQUEST_UPDATE_TASK_ID,
  schedulePullRequestUpdates,
} from './schedulePullRequestUpdates';

jest.setTimeout(120_000);

const cluster = resolveClusterProfile({ name: 'prod-eu' });

function request(name: string) {
  return parseGpuRequest({
    kind: 'GpuRequest',
    metadata: { name, namespace: 'ml' },
    spec: {
      owner: 'group:default/ml-platform',
      cluster: 'prod-eu',
      gpu: { model: 't4', sharing: 'time-slicing', replicas: 3, vramGiB: 3 },
      workload: { image: `ghcr.io/acme/${name}:1.0.0` },
    },
  });
}

const postgres = usePostgresServer();

/** A replica's database service: its own client on the shared database. */
function databaseOf(connection: string) {
  return mockServices.database({ knex: postgres.client(connection) });
}

describe('schedulePullRequestUpdates', () => {
  let remote: FixtureRemote;
  let tmp: string;
  beforeEach(async () => {
    remote = await createFixtureRemote({}, PLATFORM_FIXTURE_REPO);
    tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'gpu-backend-updates-'));
  });
  afterEach(async () => {
    await remote.cleanup();
    await fs.rm(tmp, { recursive: true, force: true });
  });

  function settingsFor(updatePullRequests?: boolean, cache = 'cache') {
    return readGpuBackendConfig(
      new ConfigReader({
        gpu: {
          gitops: {
            repoUrl: remote.url,
            cacheDir: path.join(tmp, cache),
            ...(updatePullRequests === undefined ? {} : { updatePullRequests }),
          },
          clusters: { default: 'prod-eu', profiles: { 'prod-eu': {} } },
        },
      }),
    );
  }

  it('schedules one global task that re-renders the open GPU pull requests on a moved base', async () => {
    const tasks: (SchedulerServiceTaskScheduleDefinition &
      SchedulerServiceTaskInvocationDefinition)[] = [];
    const scheduler = mockServices.scheduler.mock({
      scheduleTask: async task => {
        tasks.push(task);
      },
    });
    const logger = mockServices.logger.mock();
    await schedulePullRequestUpdates({
      settings: settingsFor(),
      scheduler,
      logger,
      integrations: ScmIntegrations.fromConfig(new ConfigReader({})),
      database: databaseOf(await postgres.newDatabase()),
    });
    expect(tasks.map(t => [t.id, t.scope])).toEqual([
      [PULL_REQUEST_UPDATE_TASK_ID, 'global'],
    ]);

    // Two requests filed at once onto one new pool, each counting only itself.
    const publish = (name: string) =>
      publishGpuRequest({
        request: request(name),
        cluster,
        catalog: builtinCatalog,
        repoUrl: remote.url,
        cacheDir: path.join(tmp, `file-${name}`),
      });
    const first = await publish('reranker');
    const second = await publish('summarizer');
    await remote.merge(first.branch);

    await tasks[0].fn(new AbortController().signal);
    expect(logger.info).toHaveBeenCalledWith(
      expect.stringContaining(
        `GPU pull request ${second.branch} (ml/summarizer) re-rendered on the new base`,
      ),
    );
    const bare = simpleGit(remote.url);
    const main = (await bare.revparse(['main'])).trim();
    expect((await bare.revparse([`${second.branch}^`])).trim()).toBe(main);
    const pool = await bare.show([
      `${second.branch}:clusters/prod-eu/gpu/nodepools/${second.plan.pool.name}.yaml`,
    ]);
    expect(pool).toContain(
      'gpu.backstage.io/requests: ml/reranker=3, ml/summarizer=3',
    );
    expect(logger.warn).not.toHaveBeenCalled();
  });

  it('schedules nothing when gpu.gitops.updatePullRequests is false', async () => {
    const scheduler = mockServices.scheduler.mock();
    await schedulePullRequestUpdates({
      settings: settingsFor(false),
      scheduler,
      logger: mockServices.logger.mock(),
      integrations: ScmIntegrations.fromConfig(new ConfigReader({})),
      database: databaseOf(await postgres.newDatabase()),
    });
    expect(scheduler.scheduleTask).not.toHaveBeenCalled();
  });
  it('two replicas on one PostgreSQL: while one runs the upkeep the other skips its run, and the claim is freed after a failed run', async () => {
    const connection = await postgres.newDatabase();
    async function replica(name: string) {
      const tasks: (SchedulerServiceTaskScheduleDefinition &
        SchedulerServiceTaskInvocationDefinition)[] = [];
      const logger = mockServices.logger.mock();
      await schedulePullRequestUpdates({
        settings: settingsFor(undefined, name),
        scheduler: mockServices.scheduler.mock({
          scheduleTask: async task => {
            tasks.push(task);
          },
        }),
        logger,
        integrations: ScmIntegrations.fromConfig(new ConfigReader({})),
        database: databaseOf(connection),
      });
      return { run: () => tasks[0].fn(new AbortController().signal), logger };
    }
    const replicas = [await replica('a'), await replica('b')];
    const first = await publishGpuRequest({
      request: request('reranker'),
      cluster,
      catalog: builtinCatalog,
      repoUrl: remote.url,
      cacheDir: path.join(tmp, 'file-reranker'),
    });
    const second = await publishGpuRequest({
      request: request('summarizer'),
      cluster,
      catalog: builtinCatalog,
      repoUrl: remote.url,
      cacheDir: path.join(tmp, 'file-summarizer'),
    });
    await remote.merge(first.branch);

    await Promise.all(replicas.map(r => r.run()));
    const rerendered = (r: (typeof replicas)[number]) =>
      (r.logger.info as jest.Mock).mock.calls.filter(([m]) =>
        String(m).includes(`GPU pull request ${second.branch}`),
      ).length;
    expect(replicas.map(rerendered).sort()).toEqual([0, 1]);
    const skipped = replicas.find(r => rerendered(r) === 0)!;
    expect(skipped.logger.info).toHaveBeenCalledWith(
      expect.stringContaining('another replica is running it'),
    );

    // A run that fails (the repository is gone) releases its claim too:
    // the other replica's next run tries, and fails, rather than skip.
    await remote.cleanup();
    for (const r of replicas) {
      (r.logger.info as jest.Mock).mockClear();
      await r.run();
      expect(r.logger.warn).toHaveBeenCalledWith(
        expect.stringContaining('Updating the open GPU pull requests failed'),
      );
      expect(r.logger.info).not.toHaveBeenCalledWith(
        expect.stringContaining('another replica is running it'),
      );
    }
  });
});
