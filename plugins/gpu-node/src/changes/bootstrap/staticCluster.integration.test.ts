/**
 * Static nodes with an inventory (pools are NFD NodeFeatureRules choosing
 * nodes by name), start to finish on disk: the bootstrap (NFD taints on),
 * then one request of every sharing mode the cluster allows is planned from
 * the repository, merged, built with the real kustomize, re-planned to no
 * change; the tree validates clean, a hand-written NodeFeatureRule beside
 * the pools stays byte-identical, and releases shrink and remove the pools.
 * The rule's schema is checked in gpu-common (`providers/staticNodes.test.ts`,
 * NFD v0.19.0 CRD).
 */
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseAllDocuments, parseDocument } from 'yaml';
import {
  builtinCatalog,
  mergeCatalog,
  resolveClusterProfile,
  type GpuRequest,
  type SharingMode,
} from '@gpu-gitops/plugin-gpu-common';
import { kustomizeBuild } from '../../kustomize/build';
import { readRepoState } from '../../repo/readRepoState';
import { FsRepoTree } from '../../repo/tree';
import { validateGitOpsTree } from '../../validate/validateGitOpsTree';
import { buildRequestChange } from '../buildRequestChange';
import { releaseOnDisk } from '../__testUtils__/releaseOnDisk';
import { writeChangeSet } from '../stagedTree';
import { everyModeRequests, mlRequest } from '../__fixtures__/requests';
import { buildBootstrapChangeSet } from './bootstrapChangeSet';
import { deployDraDriver } from '../__testUtils__/draDriverKubeletPlugin';

// Real kustomize builds (before and after, then the check) on a shared CI machine.
jest.setTimeout(300_000);

/** An on-prem rack: two-T4 and four-A100 machines, owned (price 0). */
const catalog = mergeCatalog(builtinCatalog, {
  instanceTypes: [
    ['rack-t4x2', 't4', 2, 128, 32],
    ['rack-a100x4', 'a100-40gb', 4, 512, 64],
  ].map(([name, gpuModel, gpusPerNode, ramGB, vcpu]) => ({
    name: String(name),
    family: 'rack',
    provider: 'static' as const,
    gpuModel: String(gpuModel),
    gpusPerNode: Number(gpusPerNode),
    vcpu: Number(vcpu),
    memoryMiB: Number(ramGB) * 1024,
    onDemandUsdPerHour: 0,
  })),
});

const T4_NODES = ['t4-01', 't4-02', 't4-03', 't4-04', 't4-05', 't4-06'];
const cluster = resolveClusterProfile({
  name: 'rack',
  provider: 'static',
  migStrategy: 'single',
  staticNodes: {
    select: 'name',
    inventory: [
      ...T4_NODES.map(name => ({ name, machine: 'rack-t4x2' })),
      { name: 'a100-01', machine: 'rack-a100x4' },
      { name: 'a100-02', machine: 'rack-a100x4' },
    ],
  },
});

const request = (
  name: string,
  sharing: SharingMode,
  model: string,
  gpu: Record<string, unknown>,
): GpuRequest =>
  mlRequest(name, { model, sharing, ...gpu }, { cluster: cluster.name });

const requests = everyModeRequests(cluster.name, 'a100-40gb', 9);

/** Someone's own NFD rule, no annotation of ours. */
const HAND_WRITTEN_PATH = 'clusters/rack/gpu/nodepools/infiniband.yaml';
const HAND_WRITTEN = `apiVersion: nfd.k8s-sigs.io/v1alpha1
kind: NodeFeatureRule
metadata:
  name: infiniband # the platform's own rule
spec:
  rules:
    - name: infiniband
      labels:
        example.com/infiniband: "true"
      matchFeatures:
        - feature: pci.device
          matchExpressions:
            vendor: { op: In, value: ["15b3"] }
`;

const nodeNames = (rule: any): string[] =>
  rule.spec.rules[0].matchFeatures[0].matchExpressions.nodename.value;

describe('static nodes: bootstrap, every sharing mode, release', () => {
  let dir: string;
  let tree: FsRepoTree;
  const pools = new Map<string, string>();
  beforeAll(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'gpu-static-'));
    tree = new FsRepoTree(dir);
    const bootstrap = await buildBootstrapChangeSet(tree, cluster, {
      operatorChartVersion: 'v26.7.0',
      binPacking: false,
    });
    await writeChangeSet(tree, bootstrap);
    await fs.mkdir(path.dirname(path.join(dir, HAND_WRITTEN_PATH)), {
      recursive: true,
    });
    await fs.writeFile(path.join(dir, HAND_WRITTEN_PATH), HAND_WRITTEN);
    const kustomization = path.join(
      dir,
      'clusters/rack/gpu/kustomization.yaml',
    );
    const listed = parseDocument(await fs.readFile(kustomization, 'utf8'));
    listed.addIn(['resources'], 'nodepools/infiniband.yaml');
    await fs.writeFile(kustomization, listed.toString());
    // The team's DRA driver, for the dra request (the bootstrap installs none).
    await deployDraDriver(dir, 'clusters/rack/gpu');
  });
  afterAll(async () => {
    await fs.rm(dir, { recursive: true, force: true });
  });

  it.each(requests.map(r => [`${r.metadata.name} (${r.spec.gpu.sharing})`, r]))(
    '%s: merges, builds, and re-planning from the repository changes nothing',
    async (_label, gpuRequest) => {
      const change = await buildRequestChange({
        tree,
        dir,
        request: gpuRequest as GpuRequest,
        cluster,
        catalog,
      });
      // The model: its pods land on the planned pool and on no other pool built.
      expect(change.verification?.landsOn).toEqual([change.plan.pool.name]);
      await writeChangeSet(tree, change.changeSet);
      const poolPath = `clusters/rack/gpu/nodepools/${change.plan.pool.name}.yaml`;
      pools.set((gpuRequest as GpuRequest).metadata.name, poolPath);
      const poolFile = parseAllDocuments((await tree.readFile(poolPath))!).map(
        d => d.toJS(),
      );
      expect(poolFile.map(o => o.kind)).toEqual(['NodeFeatureRule']);
      expect(nodeNames(poolFile[0])).toEqual(change.plan.pool.nodeNames);
      expect(nodeNames(poolFile[0])).toHaveLength(
        change.plan.pool.limits.nodes ?? change.plan.nodes.expected,
      );
      const again = await buildRequestChange({
        tree,
        dir,
        request: gpuRequest as GpuRequest,
        cluster,
        catalog,
      });
      expect(again.plan.pool.name).toBe(change.plan.pool.name);
      expect(again.plan.pool.reused).toBe(true);
      expect(again.plan.pool.nodeNames).toEqual(change.plan.pool.nodeNames);
      expect(again.changeSet.empty).toBe(true);
    },
  );

  it('no node is in two pools; the tree builds, validates clean, reads back every pool; the hand-written rule is untouched', async () => {
    const built = await kustomizeBuild(path.join(dir, 'clusters/rack/gpu'));
    const rules = built.filter(o => o.kind === 'NodeFeatureRule');
    expect(rules.map(o => o.metadata.name).sort()).toEqual(
      [
        'infiniband',
        ...[...new Set(pools.values())].map(p => path.basename(p, '.yaml')),
      ].sort(),
    );
    const held = rules
      .filter(r => r.metadata.name !== 'infiniband')
      .flatMap(nodeNames);
    expect(new Set(held).size).toBe(held.length);
    expect(await validateGitOpsTree(dir, { cluster })).toEqual([]);
    const state = await readRepoState(tree, undefined, cluster.name);
    expect(state.pools.map(p => p.name).sort()).toEqual(
      [
        ...new Set(
          state.workloads.map(w => w.pool).filter((p): p is string => !!p),
        ),
      ].sort(),
    );
    expect(state.otherNodePools).toContain('infiniband');
    expect(await tree.readFile(HAND_WRITTEN_PATH)).toBe(HAND_WRITTEN);
  });

  it('a second request on a pool takes free nodes; releasing it gives them back, and the last release removes the rule', async () => {
    const first = requests[0];
    const second = request('t4-exclusive-2', 'exclusive', 't4', {
      replicas: 2,
      vramGiB: 12,
    });
    const poolPath = pools.get(first.metadata.name)!;
    const names = async () =>
      nodeNames(parseAllDocuments((await tree.readFile(poolPath))!)[0].toJS());
    const before = await names();
    expect(before).toHaveLength(1);
    const grow = await buildRequestChange({
      tree,
      dir,
      request: second,
      cluster,
      catalog,
    });
    expect(grow.plan.pool.reused).toBe(true);
    await writeChangeSet(tree, grow.changeSet);
    const grown = await names();
    expect(grown).toHaveLength(2);
    expect(grown).toContain(before[0]);

    await releaseOnDisk(tree, dir, second.metadata.name, cluster, catalog);
    expect(await names()).toEqual(before);

    await releaseOnDisk(tree, dir, first.metadata.name, cluster, catalog);
    expect(await tree.readFile(poolPath)).toBeUndefined();
    expect(
      await tree.readFile('clusters/rack/gpu/kustomization.yaml'),
    ).not.toContain(path.basename(poolPath));
    expect(await tree.readFile(HAND_WRITTEN_PATH)).toBe(HAND_WRITTEN);
    expect(await validateGitOpsTree(dir, { cluster })).toEqual([]);
  });

  it('a request past the inventory is refused and writes nothing', async () => {
    await expect(
      buildRequestChange({
        tree,
        dir,
        request: request('too-big', 'exclusive', 't4', {
          replicas: 20,
          vramGiB: 12,
        }),
        cluster,
        catalog,
      }),
    ).rejects.toThrow(/static-inventory-exhausted|needs 10 rack-t4x2 node/);
  });
});
