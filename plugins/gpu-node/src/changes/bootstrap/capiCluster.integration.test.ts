/**
 * A Cluster API cluster on OpenStack (the seed's flavors), start to finish on
 * disk: the bootstrap (nothing Karpenter), then one request of every sharing
 * mode the cluster allows is planned from the repository, merged, built with
 * the real kustomize (in `buildRequestChange`), re-planned to no change; the
 * tree validates clean, a hand-written MachineDeployment and its templates
 * beside the pools stay byte-identical, and releases shrink and remove the
 * pools. The objects' schemas are checked in gpu-common
 * (`providers/clusterApiOpenStack.test.ts`, CAPI v1.14.0 and CAPO v0.14.7 CRDs).
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

/** The seed's OpenStack GPU flavors (CERN), as the platform guide's example override (docs/platform-engineers.md). */
const catalog = mergeCatalog(builtinCatalog, {
  instanceTypes: [
    ['g2.5xlarge', 't4', 1, 168, 28],
    ['g4.p1.40g', 'a100-40gb', 1, 120, 16],
    ['g4.p2.40g', 'a100-40gb', 2, 240, 32],
    ['g4.p4.40g', 'a100-40gb', 4, 480, 64],
  ].map(([name, gpuModel, gpusPerNode, ramGB, vcpu]) => ({
    name: String(name),
    family: String(name).split('.')[0],
    provider: 'openstack' as const,
    gpuModel: String(gpuModel),
    gpusPerNode: Number(gpusPerNode),
    vcpu: Number(vcpu),
    memoryMiB: Number(ramGB) * 1024,
    onDemandUsdPerHour: 0,
  })),
});

const cluster = resolveClusterProfile({
  name: 'ml-prod',
  provider: 'cluster-api',
  migStrategy: 'single',
  gpuTaintKey: 'node-role.kubernetes.io/gpu',
  clusterApi: {
    clusterName: 'ml-prod',
    namespace: 'capi-ml-prod',
    infrastructure: 'openstack',
    kubernetesVersion: 'v1.33.1',
    autoscaler: false,
    openStack: { imageName: 'ubuntu-2404-kube-v1.33.1', sshKeyName: 'ml-ops' },
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

/** Someone's own CPU workers: a MachineDeployment and its templates, no annotation of ours. */
const HAND_WRITTEN_PATH = 'clusters/ml-prod/gpu/nodepools/cpu-workers.yaml';
const HAND_WRITTEN = `apiVersion: cluster.x-k8s.io/v1beta2
kind: MachineDeployment
metadata:
  name: cpu-workers
  namespace: capi-ml-prod
spec:
  clusterName: ml-prod
  replicas: 3
  selector:
    matchLabels:
      cluster.x-k8s.io/cluster-name: ml-prod
  template:
    metadata:
      labels:
        cluster.x-k8s.io/cluster-name: ml-prod
    spec:
      clusterName: ml-prod
      version: v1.33.1
      bootstrap:
        configRef:
          apiGroup: bootstrap.cluster.x-k8s.io
          kind: KubeadmConfigTemplate
          name: cpu-workers
      infrastructureRef:
        apiGroup: infrastructure.cluster.x-k8s.io
        kind: OpenStackMachineTemplate
        name: cpu-workers
---
apiVersion: infrastructure.cluster.x-k8s.io/v1beta1
kind: OpenStackMachineTemplate
metadata:
  name: cpu-workers
  namespace: capi-ml-prod
spec:
  template:
    spec:
      flavor: m2.large # a CPU flavor
      image:
        filter:
          name: ubuntu-2404-kube-v1.33.1
---
apiVersion: bootstrap.cluster.x-k8s.io/v1beta2
kind: KubeadmConfigTemplate
metadata:
  name: cpu-workers
  namespace: capi-ml-prod
spec:
  template:
    spec:
      joinConfiguration:
        nodeRegistration:
          kubeletExtraArgs:
            - name: node-labels
              value: tier=cpu
`;

describe('Cluster API on OpenStack: bootstrap, every sharing mode, release', () => {
  let dir: string;
  let tree: FsRepoTree;
  const pools = new Map<string, string>();
  beforeAll(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'gpu-capi-'));
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
      'clusters/ml-prod/gpu/kustomization.yaml',
    );
    const listed = parseDocument(await fs.readFile(kustomization, 'utf8'));
    listed.addIn(['resources'], 'nodepools/cpu-workers.yaml');
    await fs.writeFile(kustomization, listed.toString());
    // The team's DRA driver, for the dra request (the bootstrap installs none).
    await deployDraDriver(dir, 'clusters/ml-prod/gpu');
  });
  afterAll(async () => {
    await fs.rm(dir, { recursive: true, force: true });
  });

  it('the bootstrap writes nothing Karpenter', async () => {
    const files = await tree.listFiles('clusters/ml-prod');
    const texts = await Promise.all(files.map(f => tree.readFile(f)));
    expect(texts.join('\n')).not.toMatch(/karpenter|NodeClass|NodePool/);
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
      const poolPath = `clusters/ml-prod/gpu/nodepools/${change.plan.pool.name}.yaml`;
      pools.set((gpuRequest as GpuRequest).metadata.name, poolPath);
      const poolFile = parseAllDocuments((await tree.readFile(poolPath))!).map(
        d => d.toJS(),
      );
      expect(poolFile.map(o => o.kind)).toEqual([
        'MachineDeployment',
        'OpenStackMachineTemplate',
        'KubeadmConfigTemplate',
      ]);
      expect(poolFile[0].spec.replicas).toBe(change.plan.nodes.expected);
      expect(poolFile[1].spec.template.spec.flavor).toBe(
        change.plan.nodes.instanceType,
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
      expect(again.changeSet.empty).toBe(true);
    },
  );

  it('leaves a tree that builds, validates clean, reads back every pool, and the hand-written workers untouched', async () => {
    const built = await kustomizeBuild(path.join(dir, 'clusters/ml-prod/gpu'));
    const kinds = built.map(o => o.kind);
    expect(kinds).not.toContain('NodePool');
    expect(kinds).not.toContain('NodeOverlay');
    const deployments = built
      .filter(o => o.kind === 'MachineDeployment')
      .map(o => o.metadata.name);
    expect(deployments.sort()).toEqual(
      [
        'cpu-workers',
        ...[...new Set(pools.values())].map(p => path.basename(p, '.yaml')),
      ].sort(),
    );
    expect(await validateGitOpsTree(dir, { cluster })).toEqual([]);
    const state = await readRepoState(tree, undefined, cluster.name);
    expect(state.pools.map(p => p.name).sort()).toEqual(
      [
        ...new Set(
          state.workloads.map(w => w.pool).filter((p): p is string => !!p),
        ),
      ].sort(),
    );
    expect(state.otherNodePools).toContain('cpu-workers');
    expect(await tree.readFile(HAND_WRITTEN_PATH)).toBe(HAND_WRITTEN);
  });

  it('a second request on a pool grows its replicas; releasing it shrinks them back, and the last release removes the pool and its templates', async () => {
    const first = requests[0];
    const second = request('t4-exclusive-2', 'exclusive', 't4', {
      replicas: 2,
      vramGiB: 12,
    });
    const poolPath = pools.get(first.metadata.name)!;
    const replicas = async () =>
      parseAllDocuments((await tree.readFile(poolPath))!)[0].toJS().spec
        .replicas;
    const before = await replicas();
    const grow = await buildRequestChange({
      tree,
      dir,
      request: second,
      cluster,
      catalog,
    });
    expect(grow.plan.pool.reused).toBe(true);
    await writeChangeSet(tree, grow.changeSet);
    expect(await replicas()).toBe(before + 2);

    await releaseOnDisk(tree, dir, second.metadata.name, cluster, catalog);
    expect(await replicas()).toBe(before);

    await releaseOnDisk(tree, dir, first.metadata.name, cluster, catalog);
    expect(await tree.readFile(poolPath)).toBeUndefined();
    expect(
      await tree.readFile('clusters/ml-prod/gpu/kustomization.yaml'),
    ).not.toContain(path.basename(poolPath));
    expect(await tree.readFile(HAND_WRITTEN_PATH)).toBe(HAND_WRITTEN);
    expect(await validateGitOpsTree(dir, { cluster })).toEqual([]);
  });

  it('a request that moves to another pool leaves the old one sized for the requests that stay', async () => {
    const moving = requests[1]; // t4-ts: 6 replicas on 4 slices per GPU
    const poolPath = pools.get(moving.metadata.name)!;
    const replicas = async () =>
      parseAllDocuments((await tree.readFile(poolPath))!)[0].toJS().spec
        .replicas;
    const stays = request('t4-ts-2', 'time-slicing', 't4', {
      replicas: 4,
      vramGiB: 3,
      slicesPerGpu: 4,
    });
    const join = await buildRequestChange({
      tree,
      dir,
      request: stays,
      cluster,
      catalog,
    });
    expect(join.plan.pool.reused).toBe(true);
    await writeChangeSet(tree, join.changeSet);
    // 10 slices of 4 per GPU: 3 one-GPU nodes.
    expect(await replicas()).toBe(3);

    const move = await buildRequestChange({
      tree,
      dir,
      request: request(moving.metadata.name, 'exclusive', 't4', {
        replicas: 1,
        vramGiB: 12,
      }),
      cluster,
      catalog,
    });
    const poolName = path.basename(poolPath, '.yaml');
    expect(move.plan.leftPools).toEqual([
      expect.objectContaining({ name: poolName, nodesAfter: 1 }),
    ]);
    await writeChangeSet(tree, move.changeSet);
    // t4-ts-2 alone: 4 slices, one node.
    expect(await replicas()).toBe(1);
    expect(await validateGitOpsTree(dir, { cluster })).toEqual([]);
  });
});
