import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  builtinCatalog,
  resolveClusterProfile,
} from '@gpu-gitops/plugin-gpu-common';
import {
  createFixtureRemote,
  type FixtureRemote,
} from '../__testUtils__/fixtureRemote';
import { GitFetchSource } from './gitSnapshot';
import { RepoIndex } from './RepoIndex';

/** Every turn the index's loops give the event loop, counted (and given at each call). */
const mockTurns = { count: 0 };
jest.mock('@gpu-gitops/plugin-gpu-node', () => {
  const actual = jest.requireActual('@gpu-gitops/plugin-gpu-node');
  return {
    ...actual,
    eventLoopTurns: () => async () => {
      mockTurns.count++;
    },
  };
});

jest.setTimeout(60_000);

describe('RepoIndex and the event loop', () => {
  let remote: FixtureRemote;
  let cacheDir: string;

  beforeEach(async () => {
    remote = await createFixtureRemote();
    cacheDir = await fs.mkdtemp(path.join(os.tmpdir(), 'gpu-index-cache-'));
  });

  afterEach(async () => {
    await remote.cleanup();
    await fs.rm(cacheDir, { recursive: true, force: true });
  });

  it('gives the event loop a turn for each stored request a commit changed (10k take a second to validate)', async () => {
    const index = new RepoIndex(
      {
        clusters: [resolveClusterProfile({ name: 'dev' })],
        defaultCluster: 'dev',
        catalog: builtinCatalog,
      },
      new GitFetchSource({ repoUrl: remote.url, baseBranch: 'main', cacheDir }),
    );
    await index.refresh();
    const requests: Record<string, string> = {};
    for (let i = 0; i < 12; i++) {
      requests[`requests/ml/app-${i}.yaml`] = [
        'apiVersion: gpu.backstage.io/v1alpha1',
        'kind: GpuRequest',
        `metadata: { name: app-${i}, namespace: ml }`,
        'spec:',
        '  owner: group:default/ml-platform',
        '  gpu: { model: t4, sharing: time-slicing, replicas: 1, vramGiB: 4, slicesPerGpu: 4 }',
        `  workload: { image: ghcr.io/example/app-${i}:1 }`,
        '',
      ].join('\n');
    }
    await remote.commit(requests, 'twelve requests');
    mockTurns.count = 0;

    const result = await index.refresh();

    expect(result.parsedPaths).toHaveLength(12);
    expect(index.snapshot().requests.size).toBeGreaterThanOrEqual(12);
    // A turn as each file is sorted and as each request is read.
    expect(mockTurns.count).toBeGreaterThanOrEqual(2 * 12);
  });

  it('gives the event loop a turn for each path a first index lists, compares, scans for GPU stack files and reads (130k on the scale bench)', async () => {
    const index = new RepoIndex(
      {
        clusters: [resolveClusterProfile({ name: 'dev' })],
        defaultCluster: 'dev',
        catalog: builtinCatalog,
      },
      new GitFetchSource({ repoUrl: remote.url, baseBranch: 'main', cacheDir }),
    );
    const files: Record<string, string> = {};
    for (let i = 0; i < 30; i++) {
      files[`clusters/dev/addons/addon-${i}.yaml`] =
        `apiVersion: v1\nkind: ConfigMap\nmetadata: { name: addon-${i} }\n`;
    }
    await remote.commit(files, 'thirty add-on files');
    mockTurns.count = 0;

    const result = await index.refresh();

    const scanned = result.changedPaths.filter(p =>
      p.startsWith('clusters/dev/addons/'),
    );
    expect(scanned).toHaveLength(30);
    // A turn as each file is listed, compared with the store's, sorted by
    // kind and scanned for the stacks, and as each file read is decoded.
    expect(mockTurns.count).toBeGreaterThanOrEqual(
      4 * result.changedPaths.length + 2 * result.parsedPaths.length,
    );
  });
});
