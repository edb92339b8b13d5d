/**
 * Kueue on an EKS cluster whose DRA driver shares every GPU 4 ways
 * (Karpenter 1.15.1 with its DRANVIDIAGPU gate, Kubernetes 1.36): bootstrapped,
 * a dra request planned, merged and built with the real kustomize, then
 * `validate` reads the queues against the pool in the pool's own units —
 * claims of one consumable share each, counted by Kueue in `nvidia.com/gpu`
 * through its `deviceClassMappings` (gpu-common `kueue/kueueDeviceClasses.ts`).
 */
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  builtinCatalog,
  resolveClusterProfile,
  type ClusterProfile,
  type GpuRequest,
} from '@gpu-gitops/plugin-gpu-common';
import { kustomizeBuild } from '../../kustomize/build';
import type { GpuPolicy } from '../../policy/gpuPolicy';
import { FsRepoTree } from '../../repo/tree';
import { validateGitOpsTree } from '../../validate/validateGitOpsTree';
import { buildBootstrapChangeSet } from '../bootstrap/bootstrapChangeSet';
import { buildRequestChange } from '../buildRequestChange';
import { writeChangeSet } from '../stagedTree';
import { mlRequest } from '../__fixtures__/requests';

jest.setTimeout(300_000);

const cluster = resolveClusterProfile({
  name: 'eks-dra',
  migStrategy: 'single',
  karpenterVersion: '1.15.1',
  kubernetesVersion: '1.36.2',
  dra: { karpenterNvidiaGate: true, consumableShares: 4 },
  kueue: true,
});

const policy = (gpuQuota: number): GpuPolicy => ({
  defaults: {},
  groups: [{ owner: 'group:default/ml-platform', gpuQuota }],
});

async function bootstrapped(profile: ClusterProfile) {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'gpu-kueue-dra-'));
  const tree = new FsRepoTree(dir);
  await writeChangeSet(
    tree,
    await buildBootstrapChangeSet(tree, profile, {
      operatorChartVersion: 'v26.7.0',
      binPacking: false,
    }),
  );
  return { dir, tree };
}

const kueueFindings = async (dir: string) =>
  (await validateGitOpsTree(dir, { cluster })).filter(f =>
    f.rule.startsWith('kueue'),
  );

describe('Kueue on a cluster whose DRA driver shares GPUs 4 ways', () => {
  let dir: string;
  let tree: FsRepoTree;
  beforeEach(async () => {
    ({ dir, tree } = await bootstrapped(cluster));
  });
  afterEach(() => fs.rm(dir, { recursive: true, force: true }));

  it("validate reads a shared DRA pool's quota in its consumable shares: the team's 2 GPUs are 8 claims, within the pool, and 9 are not", async () => {
    const change = await buildRequestChange({
      tree,
      dir,
      request: mlRequest(
        't4-dra',
        { model: 't4', sharing: 'dra', replicas: 3, vramGiB: 4 },
        { cluster: cluster.name },
      ) as GpuRequest,
      cluster,
      catalog: builtinCatalog,
      policy: policy(2),
    });
    // The bootstrap's Kueue release maps the DRA DeviceClasses already: nothing to warn of.
    expect(change.plan.warnings.join('\n')).not.toContain(
      'deviceClassMappings',
    );
    await writeChangeSet(tree, change.changeSet);
    const pool = change.plan.pool.name;
    const built = await kustomizeBuild(path.join(dir, 'clusters/eks-dra/gpu'));
    const queue = built.find(o => o.kind === 'ClusterQueue') as any;
    const resources = queue.spec.resourceGroups.flatMap((g: any) =>
      g.flavors
        .filter((f: any) => f.name === pool)
        .map((f: any) => f.resources),
    );
    // Kueue counts one claim per replica in nvidia.com/gpu: 2 GPUs × 4 shares.
    expect(resources).toEqual([[{ name: 'nvidia.com/gpu', nominalQuota: 8 }]]);
    const nodePool = built.find(
      o => o.kind === 'NodePool' && o.metadata.name === pool,
    ) as any;
    expect(nodePool.spec.limits['nvidia.com/gpu']).toBe('2');
    expect(await kueueFindings(dir)).toEqual([]);

    // A hand edit past what the pool's 2 GPUs × 4 shares provision.
    const queuePath =
      'clusters/eks-dra/gpu/kueue/cluster-queues/ml-platform.yaml';
    await tree.writeFile(
      queuePath,
      (await tree.readFile(queuePath))!.replace(
        'nominalQuota: 8',
        'nominalQuota: 9',
      ),
    );
    expect(await kueueFindings(dir)).toEqual([
      expect.objectContaining({
        object: `ResourceFlavor/${pool}`,
        rule: 'kueue-quota-above-pool',
        message: expect.stringContaining(
          `Kueue quotas on pool ${pool} add up to 9 nvidia.com/gpu (ml-platform 9 (2.25 GPUs)) but the pool's limits provision only 8 (2 GPUs)`,
        ),
      }),
    ]);
  });

  it("warns of the DRA mappings only while the repository's own Kueue (plain manifests) lacks them", async () => {
    // The team's Kueue: v0.19.2's manifests (bootstrap __fixtures__/SOURCES.md), applied by the cluster's folder.
    const manifests = await fs.readFile(
      path.join(
        __dirname,
        '..',
        'bootstrap',
        'kueue',
        '__fixtures__',
        'kueue-v0.19.2_manifests-controller.yaml',
      ),
      'utf8',
    );
    const repo = await fs.mkdtemp(path.join(os.tmpdir(), 'gpu-kueue-dra-'));
    try {
      const own = new FsRepoTree(repo);
      await own.writeFile('clusters/eks-dra/kueue/manifests.yaml', manifests);
      await writeChangeSet(
        own,
        await buildBootstrapChangeSet(own, cluster, {
          operatorChartVersion: 'v26.7.0',
          binPacking: false,
        }),
      );
      expect(await own.listFiles('clusters/eks-dra/kueue-controller')).toEqual(
        [],
      );
      const warnings = async () =>
        (
          await buildRequestChange({
            tree: own,
            dir: repo,
            verify: false,
            request: mlRequest(
              't4-dra',
              { model: 't4', sharing: 'dra', replicas: 3, vramGiB: 4 },
              { cluster: cluster.name },
            ) as GpuRequest,
            cluster,
            catalog: builtinCatalog,
            policy: policy(2),
          })
        ).plan.warnings.join('\n');
      // Upstream's Configuration maps no DeviceClass.
      expect(await warnings()).toContain(
        'set resources.deviceClassMappings: [{name: nvidia.com/gpu, deviceClassNames: [gpu.nvidia.com]}]',
      );
      await own.writeFile(
        'clusters/eks-dra/kueue/manifests.yaml',
        manifests.replace(
          '    integrations:\n',
          '    resources:\n      deviceClassMappings:\n      - name: nvidia.com/gpu\n        deviceClassNames: [gpu.nvidia.com]\n    integrations:\n',
        ),
      );
      expect(await warnings()).not.toContain('deviceClassMappings');
    } finally {
      await fs.rm(repo, { recursive: true, force: true });
    }
  });
});
