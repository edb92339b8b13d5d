/**
 * An EKS cluster whose profile enables DRA (Karpenter 1.15.1 with its
 * DRANVIDIAGPU gate, Kubernetes 1.36, the driver sharing every GPU 4 ways),
 * start to finish on disk: the bootstrap writes NVIDIA's DRA driver release
 * beside the GPU Operator's, then a dra request is planned from the
 * repository, merged, built with the real kustomize, lands on its planned
 * pool only, and the driver the bootstrap wrote publishes that pool's GPUs.
 * The same cluster without the DRA profile gets no driver, and its dra
 * request is refused, naming what to install.
 */
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse } from 'yaml';
import {
  builtinCatalog,
  isGpuInputError,
  landingRefusal,
  nodeShapeOf,
  resolveClusterProfile,
  type ClusterProfile,
  type GpuRequest,
} from '@gpu-gitops/plugin-gpu-common';
import { kustomizeBuild } from '../../kustomize/build';
import { readGpuStack } from '../../repo/gpuStack/readGpuStack';
import { FsRepoTree } from '../../repo/tree';
import { validateGitOpsTree } from '../../validate/validateGitOpsTree';
import { buildRequestChange } from '../buildRequestChange';
import { writeChangeSet } from '../stagedTree';
import { mlRequest } from '../__fixtures__/requests';
import { buildBootstrapChangeSet } from './bootstrapChangeSet';
import { clusterReleaseFiles } from './helmReleases/findHelmReleases';

// Real kustomize builds (before and after, then the check) on a shared CI machine.
jest.setTimeout(300_000);

const draProfile = {
  name: 'eks-dra',
  migStrategy: 'single',
  karpenterVersion: '1.15.1',
  kubernetesVersion: '1.36.2',
  dra: { karpenterNvidiaGate: true, consumableShares: 4 },
} as const;
const withDra = resolveClusterProfile(draProfile);
const { dra: _dra, ...noDraProfile } = draProfile;
const withoutDra = resolveClusterProfile(noDraProfile);

const draRequest = (cluster: ClusterProfile) =>
  mlRequest(
    't4-dra',
    { model: 't4', sharing: 'dra', replicas: 3, vramGiB: 4 },
    { cluster: cluster.name },
  ) as GpuRequest;

async function bootstrapped(cluster: ClusterProfile) {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'gpu-dra-'));
  const tree = new FsRepoTree(dir);
  const bootstrap = await buildBootstrapChangeSet(tree, cluster, {
    operatorChartVersion: 'v26.7.0',
    binPacking: false,
  });
  await writeChangeSet(tree, bootstrap);
  return { dir, tree, bootstrap };
}

describe('EKS with DRA on: the bootstrap installs the DRA driver, a dra request runs', () => {
  let dir: string;
  let tree: FsRepoTree;
  let notes: string[];
  beforeAll(async () => {
    ({ dir, tree } = await bootstrapped(withDra));
    notes = (
      await buildBootstrapChangeSet(tree, withDra, {
        operatorChartVersion: 'v26.7.0',
        binPacking: false,
      })
    ).notes;
  });
  afterAll(async () => {
    await fs.rm(dir, { recursive: true, force: true });
  });

  it('writes the driver release beside the GPU Operator’s, in the same helmCharts form', async () => {
    const kustomization = parse(
      (await tree.readFile('clusters/eks-dra/dra-driver/kustomization.yaml'))!,
    );
    expect(kustomization.helmCharts).toEqual([
      {
        name: 'dra-driver-nvidia-gpu',
        repo: 'oci://registry.k8s.io/dra-driver-nvidia/charts',
        version: '0.5.0',
        releaseName: 'dra-driver-nvidia-gpu',
        namespace: 'dra-driver-nvidia-gpu',
        includeCRDs: true,
        valuesFile: 'values.yaml',
      },
    ]);
    const operator = parse(
      (await tree.readFile(
        'clusters/eks-dra/gpu-operator/kustomization.yaml',
      ))!,
    );
    expect(Object.keys(operator.helmCharts[0]).sort()).toEqual(
      Object.keys(kustomization.helmCharts[0]).sort(),
    );
    // The GPU Operator keeps its device plugin: it serves the other pools.
    const operatorValues = parse(
      (await tree.readFile('clusters/eks-dra/gpu-operator/values.yaml'))!,
    );
    expect(operatorValues.devicePlugin.enabled).toBe(true);
    // Karpenter launches nodes for pending claims: its AWS DRA gate is on.
    const karpenterValues = parse(
      (await tree.readFile(
        'clusters/eks-dra/karpenter-controller/values.yaml',
      ))!,
    );
    expect(karpenterValues.settings.awsFeatureGates).toEqual({
      draNVIDIAGPU: true,
    });
  });

  it('the next run changes nothing (the release is the bootstrap’s own)', async () => {
    const again = await buildBootstrapChangeSet(tree, withDra, {
      operatorChartVersion: 'v26.7.0',
      binPacking: false,
    });
    expect(again.empty).toBe(true);
    expect(notes.join('\n')).toMatch(
      /NVIDIA's DRA driver is installed by the bootstrap's release in `clusters\/eks-dra\/dra-driver\/`: chart `dra-driver-nvidia-gpu` 0\.5\.0/,
    );
  });

  it('a dra request is accepted, builds, lands on its planned pool only, and the driver publishes that pool’s GPUs', async () => {
    const change = await buildRequestChange({
      tree,
      dir,
      request: draRequest(withDra),
      cluster: withDra,
      catalog: builtinCatalog,
    });
    expect(change.verification?.landsOn).toEqual([change.plan.pool.name]);
    await writeChangeSet(tree, change.changeSet);
    const built = await kustomizeBuild(path.join(dir, 'clusters/eks-dra/gpu'));
    const pool = built.find(
      o => o.kind === 'NodePool' && o.metadata.name === change.plan.pool.name,
    );
    expect(pool).toBeDefined();
    // The workload's claims ask for the DeviceClass the driver's chart installs.
    const workloadFolder = path.dirname(
      change.changeSet.changes
        .map(c => c.path)
        .find(p => p.startsWith('apps/') && p.endsWith('kustomization.yaml'))!,
    );
    const claims = (await kustomizeBuild(path.join(dir, workloadFolder)))
      .filter(o => o.kind === 'ResourceClaimTemplate')
      .flatMap(o => (o as any).spec.spec.devices.requests);
    expect(claims.length).toBeGreaterThan(0);
    expect(claims.map(r => r.exactly.deviceClassName)).toEqual(
      claims.map(() => 'gpu.nvidia.com'),
    );

    // The driver the repository now deploys: the bootstrap's, publishing
    // GPUs, and its kubelet plugin runs on the pool's nodes.
    const stack = await readGpuStack(
      tree,
      withDra,
      await clusterReleaseFiles(tree, undefined, withDra.name),
    );
    expect(stack.draDrivers).toHaveLength(1);
    const [driver] = stack.draDrivers!;
    expect(driver.servesGpus).toBe(true);
    expect(
      landingRefusal(
        { ...driver.placement!, gpuResources: {} },
        nodeShapeOf(pool!),
      ),
    ).toBeUndefined();

    // Every object the tree builds passes its schema; the driver's release
    // is built without its chart (validate says so in a note).
    expect(await validateGitOpsTree(dir, { cluster: withDra })).toEqual([]);

    // Never both on one node: an exclusive request's pool (the GPU
    // Operator's device plugin) gets no DRA kubelet plugin.
    const exclusive = await buildRequestChange({
      tree,
      dir,
      request: mlRequest(
        't4-exclusive',
        { model: 't4', sharing: 'exclusive', replicas: 1, vramGiB: 12 },
        { cluster: withDra.name },
      ) as GpuRequest,
      cluster: withDra,
      catalog: builtinCatalog,
    });
    expect(exclusive.verification?.landsOn).toEqual([exclusive.plan.pool.name]);
    await writeChangeSet(tree, exclusive.changeSet);
    const exclusivePool = (
      await kustomizeBuild(path.join(dir, 'clusters/eks-dra/gpu'))
    ).find(
      o =>
        o.kind === 'NodePool' && o.metadata.name === exclusive.plan.pool.name,
    );
    expect(
      landingRefusal(
        { ...driver.placement!, gpuResources: {} },
        nodeShapeOf(exclusivePool!),
      ),
    ).toMatch(/nvidia\.com\/gpu\.deploy\.device-plugin/);
  });
});

describe('the same cluster without the DRA profile', () => {
  let dir: string;
  let tree: FsRepoTree;
  beforeAll(async () => {
    ({ dir, tree } = await bootstrapped(withoutDra));
  });
  afterAll(async () => {
    await fs.rm(dir, { recursive: true, force: true });
  });

  it('writes no DRA driver, and a dra request is refused, naming what to install', async () => {
    expect(
      await tree.readFile('clusters/eks-dra/dra-driver/kustomization.yaml'),
    ).toBeUndefined();
    const refusal = await buildRequestChange({
      tree,
      dir,
      request: draRequest(withoutDra),
      cluster: withoutDra,
      catalog: builtinCatalog,
    }).then(
      () => undefined,
      (error: unknown) => (isGpuInputError(error) ? error.issues[0] : error),
    );
    expect(refusal).toMatchObject({ rule: 'verify' });
    expect((refusal as { message: string }).message).toMatch(
      /no DRA driver publishes the GPUs.*install NVIDIA's DRA driver/,
    );
  });
});

describe('EKS with DRA on and static MIG: a dra request for a MIG profile', () => {
  const { consumableShares: _shares, ...draOnly } = draProfile.dra;
  const withStaticMig = resolveClusterProfile({
    ...draProfile,
    dra: { ...draOnly, staticMig: true },
  });
  let dir: string;
  let tree: FsRepoTree;
  beforeAll(async () => {
    ({ dir, tree } = await bootstrapped(withStaticMig));
  });
  afterAll(async () => {
    await fs.rm(dir, { recursive: true, force: true });
  });

  it('claims a 1g.10gb instance of mig.nvidia.com, lands on its pool only, and mig-parted partitions that pool', async () => {
    const change = await buildRequestChange({
      tree,
      dir,
      request: mlRequest(
        'a100-mig-dra',
        { model: 'a100-80gb', sharing: 'dra', replicas: 2, vramGiB: 9 },
        { cluster: withStaticMig.name },
      ) as GpuRequest,
      cluster: withStaticMig,
      catalog: builtinCatalog,
    });
    expect(change.plan.sharing.migProfile).toBe('1g.10gb');
    expect(change.verification?.landsOn).toEqual([change.plan.pool.name]);
    await writeChangeSet(tree, change.changeSet);

    const gpu = await kustomizeBuild(path.join(dir, 'clusters/eks-dra/gpu'));
    const pool = gpu.find(
      o => o.kind === 'NodePool' && o.metadata.name === change.plan.pool.name,
    ) as any;
    const migConfig =
      pool.spec.template.metadata.labels['nvidia.com/mig.config'];
    expect(pool.spec.template.metadata.labels).toMatchObject({
      'nvidia.com/gpu.deploy.device-plugin': 'false',
    });
    expect(pool.spec.replicas).toBe(change.plan.nodes.expected);
    // The layout the label names is in the MIG manager's config.
    const migParted = gpu
      .filter(o => o.kind === 'ConfigMap')
      .map(o => parse(Object.values((o as any).data ?? {}).join('\n') || '{}'))
      .find(config => config?.['mig-configs']?.[migConfig]);
    expect(migParted['mig-configs'][migConfig][0]['mig-devices']).toEqual({
      '1g.10gb': 7,
    });

    const workloadFolder = path.dirname(
      change.changeSet.changes
        .map(c => c.path)
        .find(p => p.startsWith('apps/') && p.endsWith('kustomization.yaml'))!,
    );
    const [request] = (await kustomizeBuild(path.join(dir, workloadFolder)))
      .filter(o => o.kind === 'ResourceClaimTemplate')
      .flatMap(o => (o as any).spec.spec.devices.requests);
    expect(request.exactly.deviceClassName).toBe('mig.nvidia.com');
    expect(
      request.exactly.selectors.map((s: any) => s.cel.expression),
    ).toContain("device.attributes['gpu.nvidia.com'].profile == '1g.10gb'");
    // Every object the tree builds passes its schema (resource.k8s.io/v1 included).
    expect(await validateGitOpsTree(dir, { cluster: withStaticMig })).toEqual(
      [],
    );
  });
});
