import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
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
import { emptySnapshot } from '../repoIndex/indexSnapshot';
import {
  EXPIRY_RELEASE_TASK_ID,
  scheduleExpiryReleases,
} from './scheduleExpiryReleases';

jest.setTimeout(120_000);

const EXPIRES_AT = '2026-12-01T00:00:00.000Z';
const before = new Date('2026-11-30T23:00:00Z');
const after = new Date('2026-12-01T06:00:00Z');

const trial = parseGpuRequest({
  kind: 'GpuRequest',
  metadata: { name: 'trial', namespace: 'ml' },
  spec: {
    owner: 'group:default/ml-platform',
    cluster: 'prod-eu',
    gpu: { model: 't4', sharing: 'time-slicing', replicas: 2, vramGiB: 3 },
    workload: { image: 'ghcr.io/acme/trial:1.0.0' },
    expiresAt: EXPIRES_AT,
  },
});

const postgres = usePostgresServer();

describe('scheduleExpiryReleases', () => {
  let remote: FixtureRemote;
  let tmp: string;
  beforeEach(async () => {
    remote = await createFixtureRemote({}, PLATFORM_FIXTURE_REPO);
    tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'gpu-backend-expiry-'));
  });
  afterEach(async () => {
    await remote.cleanup();
    await fs.rm(tmp, { recursive: true, force: true });
  });

  /** One backend replica: its own cache folder and database client, the shared database, the injected clock. */
  async function replica(connection: string, name: string, clock: () => Date) {
    const knex = postgres.client(connection);
    const scheduler = mockServices.scheduler.mock();
    const logger = mockServices.logger.mock();
    const task = await scheduleExpiryReleases({
      settings: readGpuBackendConfig(
        new ConfigReader({
          gpu: {
            gitops: { repoUrl: remote.url, cacheDir: path.join(tmp, name) },
            clusters: { default: 'prod-eu', profiles: { 'prod-eu': {} } },
          },
        }),
      ),
      scheduler,
      logger,
      integrations: ScmIntegrations.fromConfig(new ConfigReader({})),
      database: mockServices.database({ knex }),
      snapshot: () => ({
        ...emptySnapshot(),
        requests: new Map([
          ['ml/trial', { path: 'requests/ml/trial.yaml', request: trial }],
        ]),
      }),
      now: clock,
    });
    return { task: task!, scheduler, logger };
  }

  it('two replicas on one PostgreSQL open one release pull request when the date passes, and a restart opens none', async () => {
    const created = await publishGpuRequest({
      request: trial,
      cluster: resolveClusterProfile({ name: 'prod-eu' }),
      catalog: builtinCatalog,
      repoUrl: remote.url,
      cacheDir: path.join(tmp, 'developer'),
    });
    await remote.merge(created.branch);

    let now = before;
    const connection = await postgres.newDatabase();
    const replicas = [
      await replica(connection, 'a', () => now),
      await replica(connection, 'b', () => now),
    ];
    expect(
      (replicas[0].scheduler.scheduleTask as jest.Mock).mock.calls[0][0],
    ).toMatchObject({ id: EXPIRY_RELEASE_TASK_ID, scope: 'global' });

    // Not expired yet: nothing happens.
    const early = await Promise.all(replicas.map(r => r.task.run()));
    expect(early.flatMap(r => r.opened)).toEqual([]);
    const bare = simpleGit(remote.url);
    const branches = async () =>
      (await bare.raw(['branch', '--list', 'gpu/release-*'])).trim();
    expect(await branches()).toBe('');

    // The date passes: both replicas run at the same time, one opens it.
    now = after;
    const runs = await Promise.all(replicas.map(r => r.task.run()));
    const opened = runs.flatMap(r => r.opened);
    expect(opened).toEqual([
      {
        requestId: 'ml/trial',
        expiresAt: EXPIRES_AT,
        pullRequestUrl: `file://${remote.url}#gpu/release-ml-trial`,
      },
    ]);
    expect(runs.flatMap(r => r.failed)).toEqual([]);
    expect(await branches()).toBe('gpu/release-ml-trial');
    const sha = (await bare.revparse(['gpu/release-ml-trial'])).trim();
    expect(
      await bare.raw(['rev-list', '--count', 'main..gpu/release-ml-trial']),
    ).toBe('1\n');
    const message = await bare.raw(['log', '-1', '--format=%B', sha]);
    expect(message).toContain('Gpu-Release: ml/trial');
    expect(
      await bare.raw([
        'ls-tree',
        '--name-only',
        'gpu/release-ml-trial',
        'requests/ml/',
      ]),
    ).not.toContain('trial.yaml');

    // A restarted replica a day later: the store remembers, nothing reopens.
    now = new Date(after.getTime() + 86_400_000);
    const restarted = await replica(connection, 'c', () => now);
    expect((await restarted.task.run()).opened).toEqual([]);
    expect((await bare.revparse(['gpu/release-ml-trial'])).trim()).toBe(sha);
  });
});
