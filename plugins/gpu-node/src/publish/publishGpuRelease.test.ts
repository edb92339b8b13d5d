import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { isGpuInputError } from '@gpu-gitops/plugin-gpu-common';
import { BareRemote, createBareRemote } from '../git/__testUtils__/bareRemote';
import {
  publishGpuRelease,
  PublishGpuReleaseOptions,
} from './publishGpuRelease';
import { publishGpuRequest } from './publishGpuRequest';
import {
  catalog,
  cluster,
  gpuRequest,
  seedFiles,
} from './__testUtils__/fixtures';

// Each test publishes several commits through real git (13 s alone on a quiet
// 2-core machine): the ceiling catches a hang, not a loaded machine.
jest.setTimeout(120_000);

describe('publishGpuRelease', () => {
  let remote: BareRemote;
  let cacheDir: string;

  beforeEach(async () => {
    remote = await createBareRemote(seedFiles);
    cacheDir = await fs.mkdtemp(path.join(os.tmpdir(), 'gpu-gitops-release-'));
  });
  afterEach(async () => {
    await remote.cleanup();
    await fs.rm(cacheDir, { recursive: true, force: true });
  });

  const create = (name: string, replicas: number) =>
    publishGpuRequest({
      catalog,
      repoUrl: remote.url,
      cacheDir,
      request: gpuRequest(name, { replicas }),
      cluster,
    });
  const release = (
    name: string,
    more: Partial<PublishGpuReleaseOptions> = {},
  ) =>
    publishGpuRelease({
      catalog,
      repoUrl: remote.url,
      cacheDir,
      request: { namespace: 'ml', name },
      clusterProfile: () => cluster,
      ...more,
    });
  /** The merge button: main moves to the branch head (each branch starts at main). */
  const merge = async (branch: string) => {
    const sha = (await remote.branchSha(branch))!;
    await remote.git(['update-ref', 'refs/heads/main', sha]);
  };
  const filesOn = async (ref: string) =>
    (await remote.git(['ls-tree', '-r', '--name-only', ref]))
      .trim()
      .split('\n');

  it('A and B in one pool: each release is a pull request that shrinks, then removes, the pool; the money adds up', async () => {
    const a = await create('chat-a', 6);
    await merge(a.branch);
    const b = await create('chat-b', 2);
    await merge(b.branch);
    expect(b.plan.pool.name).toBe(a.plan.pool.name);
    const poolFile = `clusters/prod/gpu/nodepools/${a.plan.pool.name}.yaml`;

    const dryRun = await release('chat-a', { dryRun: true });
    expect(dryRun.diff).toContain(
      '--- a/requests/ml/chat-a.yaml\n+++ /dev/null',
    );
    expect(await remote.branchSha('gpu/release-ml-chat-a')).toBeUndefined();

    const first = await release('chat-a');
    expect(first.branch).toBe('gpu/release-ml-chat-a');
    expect(first.url).toBe(`file://${remote.url}#gpu/release-ml-chat-a`);
    expect(first.files).toEqual(
      expect.arrayContaining(['requests/ml/chat-a.yaml', poolFile]),
    );
    const [pool] = first.plan.pools;
    expect(pool).toMatchObject({ releasedUnits: 6, removed: false });
    expect(pool.nodesAfter).toBeLessThan(pool.nodesBefore);
    const saved = pool.usdPerMonthBefore - pool.usdPerMonthAfter;
    expect(first.plan.savedUsdPerMonth).toBeCloseTo(saved, 2);
    const money = (usd: number) =>
      `$${usd.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
    expect(first.title).toBe(
      `GPU release: ml/chat-a — saves ${money(saved)}/month`,
    );
    expect(first.body).toContain(
      `| \`${pool.name}\` | 6 × \`${pool.resourceName}\` | ${pool.nodesBefore} → ${pool.nodesAfter} | ${money(pool.usdPerMonthBefore)} → ${money(pool.usdPerMonthAfter)} |`,
    );
    expect(first.body).toContain(
      `**It saves ${money(saved)}/month: pool ${pool.name} frees 6 ${pool.resourceName} and shrinks from ${pool.nodesBefore} nodes to ${pool.nodesAfter}`,
    );
    expect(first.body).toContain(`pool \`${pool.name}\` for \`ml/chat-b\``);
    const message = await remote.git([
      'log',
      '-1',
      '--format=%B',
      first.branch,
    ]);
    expect(message).toContain('Gpu-Release: ml/chat-a');
    // Re-running the release updates the same branch, nothing new.
    const again = await release('chat-a');
    expect(again.commit).toBe(first.commit);
    await merge(first.branch);

    const second = await release('chat-b');
    expect(second.plan.pools[0]).toMatchObject({
      removed: true,
      nodesAfter: 0,
    });
    expect(second.body).toContain('— **removed**');
    await merge(second.branch);
    const left = await filesOn('main');
    expect(
      left.filter(f => /chat-|nodepools\/|device-plugin\//.test(f)),
    ).toEqual([]);
    const kustomization = await remote.readFile(
      'main',
      'clusters/prod/gpu/kustomization.yaml',
    );
    expect(kustomization).not.toContain(a.plan.pool.name);
    expect(kustomization).not.toContain(a.plan.sharing.deviceConfigName!);
  });

  it('a request not merged yet, or released already, is a clear refusal naming which, and pushes nothing', async () => {
    await create('chat-a', 2);
    const notMerged = await release('chat-a').catch(e => e);
    expect(isGpuInputError(notMerged)).toBe(true);
    expect(notMerged.issues[0].rule).toBe('not-in-repository');
    expect(notMerged.message).toContain(
      `ml/chat-a is not in main of ${remote.url}: its pull request (branch gpu/ml-chat-a) is not merged yet: merge it first, or close it instead of releasing.`,
    );
    expect(await remote.branchSha('gpu/release-ml-chat-a')).toBeUndefined();

    // Merged, released, and the release merged: releasing again says so.
    await merge('gpu/ml-chat-a');
    const released = await release('chat-a');
    await merge(released.branch);
    const twice = await release('chat-a').catch(e => e);
    expect(twice.issues[0].rule).toBe('not-in-repository');
    expect(twice.message).toContain(
      `ml/chat-a is not in main of ${remote.url}: it was released already (branch gpu/release-ml-chat-a).`,
    );
  });
});
