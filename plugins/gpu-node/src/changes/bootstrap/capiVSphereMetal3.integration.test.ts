/**
 * Cluster API clusters on vSphere (CAPV) and on bare metal with Metal3
 * (CAPM3), start to finish on disk, as `capiCluster.integration.test.ts`
 * does for OpenStack: the bootstrap (nothing Karpenter), then one request of
 * every sharing mode the cluster allows is planned from the repository,
 * merged, built with the real kustomize (in `buildRequestChange`),
 * re-planned to no change, with each pool's machine read back from its
 * template; the tree validates clean against the cluster's catalog; a
 * changed machine becomes a new template the MachineDeployment moves to; a
 * hand-written MachineDeployment and its templates stay byte-identical;
 * releases remove the pools. The objects' schemas are checked in gpu-common
 * (`providers/clusterApiVSphere.test.ts`, `clusterApiMetal3.test.ts`,
 * against the CRDs of CAPV v1.16.1 and CAPM3 v1.13.2).
 */
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseAllDocuments, parseDocument } from 'yaml';
import {
  builtinCatalog,
  mergeCatalog,
  resolveClusterProfile,
  type ClusterProfile,
  type GpuCatalog,
  type GpuRequest,
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

const GIB = 1024;

/** The platform's vSphere VM shapes: whole-GPU vGPUs first by name, then GPUs passed through. */
const vSphereCatalog = mergeCatalog(builtinCatalog, {
  instanceTypes: [
    ['vm-a100-vgpu', 'a100-40gb', 1, 16, 128, { vgpuProfile: 'grid_a100-40c' }],
    ['vm-a100x1', 'a100-40gb', 1, 16, 128, { pciDeviceId: '20f1' }],
    ['vm-t4-vgpu', 't4', 1, 8, 64, { vgpuProfile: 'grid_t4-16c' }],
    ['vm-t4x2', 't4', 2, 16, 96, {}],
  ].map(([name, gpuModel, gpusPerNode, vcpu, memoryGiB, gpu]) => ({
    name: String(name),
    family: 'vm',
    provider: 'vsphere' as const,
    gpuModel: String(gpuModel),
    gpusPerNode: Number(gpusPerNode),
    vcpu: Number(vcpu),
    memoryMiB: Number(memoryGiB) * GIB,
    onDemandUsdPerHour: 0,
    vSphere: { diskGiB: 100, ...(gpu as object) },
  })),
});

/** The platform's bare-metal GPU host classes. */
const metal3Catalog = mergeCatalog(builtinCatalog, {
  instanceTypes: [
    ['bm-t4x4', 't4', 4, 48, 256],
    ['bm-a100x8', 'a100-40gb', 8, 128, 1024],
  ].map(([name, gpuModel, gpusPerNode, vcpu, memoryGiB]) => ({
    name: String(name),
    family: 'bm',
    provider: 'metal3' as const,
    gpuModel: String(gpuModel),
    gpusPerNode: Number(gpusPerNode),
    vcpu: Number(vcpu),
    memoryMiB: Number(memoryGiB) * GIB,
    onDemandUsdPerHour: 0,
  })),
});

const common = {
  kubernetesVersion: 'v1.33.1',
  autoscaler: false,
};

interface Infrastructure {
  label: string;
  cluster: ClusterProfile;
  catalog: GpuCatalog;
  templateKind: string;
  /** The spec of a hand-written CPU worker template of this kind. */
  handWrittenSpec: string;
  /** The catalog or profile after the platform changes the machine of the T4 exclusive pool. */
  changed: { cluster: ClusterProfile; catalog: GpuCatalog };
  /** A T4 machine the planner would now prefer for a new pool (one GPU, first by name). */
  preferredT4: Record<string, unknown>;
}

const vSphereCluster = (vSphere: Record<string, unknown>) =>
  resolveClusterProfile({
    name: 'ml-vsphere',
    provider: 'cluster-api',
    migStrategy: 'single',
    gpuTaintKey: 'node-role.kubernetes.io/gpu',
    clusterApi: {
      ...common,
      clusterName: 'ml-vsphere',
      namespace: 'capi-ml-vsphere',
      infrastructure: 'vsphere',
      vSphere,
    },
  });
const vSphereSettings = {
  template: 'ubuntu-2404-kube-v1.33.1',
  datacenter: 'dc1',
  network: { devices: [{ networkName: 'ml-nodes', dhcp4: true }] },
};

const metal3Cluster = (metal3: Record<string, unknown>) =>
  resolveClusterProfile({
    name: 'ml-metal',
    provider: 'cluster-api',
    migStrategy: 'single',
    gpuTaintKey: 'node-role.kubernetes.io/gpu',
    clusterApi: {
      ...common,
      clusterName: 'ml-metal',
      namespace: 'capi-ml-metal',
      infrastructure: 'metal3',
      kubeletExtraArgs: {
        'provider-id': 'metal3://{{ ds.meta_data.providerid }}',
      },
      metal3,
    },
  });
const metal3Settings = {
  hostClassLabel: 'gpu.example.com/host-class',
  image: {
    url: 'http://images.example.com/ubuntu-2404-kube-v1.33.1.qcow2',
    checksum:
      'http://images.example.com/ubuntu-2404-kube-v1.33.1.qcow2.sha256sum',
    checksumType: 'sha256',
    diskFormat: 'qcow2',
  },
  dataTemplateName: 'ml-metal-workers',
};

const INFRASTRUCTURES: Infrastructure[] = [
  {
    label: 'vSphere',
    cluster: vSphereCluster(vSphereSettings),
    catalog: vSphereCatalog,
    templateKind: 'VSphereMachineTemplate',
    handWrittenSpec: `      template: ubuntu-2404-kube-v1.33.1
      numCPUs: 4
      memoryMiB: 16384
      network:
        devices:
          - networkName: ml-nodes
            dhcp4: true
`,
    preferredT4: {
      name: 'vm-t4-1',
      family: 'vm',
      provider: 'vsphere',
      gpuModel: 't4',
      gpusPerNode: 1,
      vcpu: 4,
      memoryMiB: 32 * GIB,
      onDemandUsdPerHour: 0,
      vSphere: { diskGiB: 50, vgpuProfile: 'grid_t4-16c' },
    },
    // A bigger disk for the T4 vGPU VMs.
    changed: {
      cluster: vSphereCluster(vSphereSettings),
      catalog: {
        ...vSphereCatalog,
        instanceTypes: vSphereCatalog.instanceTypes.map(t =>
          t.name === 'vm-t4-vgpu'
            ? { ...t, vSphere: { ...t.vSphere!, diskGiB: 200 } }
            : t,
        ),
      },
    },
  },
  {
    label: 'Metal3',
    cluster: metal3Cluster(metal3Settings),
    catalog: metal3Catalog,
    templateKind: 'Metal3MachineTemplate',
    handWrittenSpec: `      hostSelector:
        matchLabels:
          gpu.example.com/host-class: cpu-1u
      image:
        url: http://images.example.com/ubuntu-2404-kube-v1.33.1.qcow2
        checksum: http://images.example.com/ubuntu-2404-kube-v1.33.1.qcow2.sha256sum
`,
    preferredT4: {
      name: 'bm-t4x1',
      family: 'bm',
      provider: 'metal3',
      gpuModel: 't4',
      gpusPerNode: 1,
      vcpu: 16,
      memoryMiB: 64 * GIB,
      onDemandUsdPerHour: 0,
    },
    // A new node image.
    changed: {
      cluster: metal3Cluster({
        ...metal3Settings,
        image: {
          ...metal3Settings.image,
          url: 'http://images.example.com/ubuntu-2404-kube-v1.33.2.qcow2',
        },
      }),
      catalog: metal3Catalog,
    },
  },
];

/** Someone's own CPU workers: a MachineDeployment and its templates, no annotation of ours. */
function handWritten(infrastructure: Infrastructure): string {
  const { clusterName, namespace } = infrastructure.cluster.clusterApi!;
  return `apiVersion: cluster.x-k8s.io/v1beta2
kind: MachineDeployment
metadata:
  name: cpu-workers
  namespace: ${namespace}
spec:
  clusterName: ${clusterName}
  replicas: 3
  selector:
    matchLabels:
      cluster.x-k8s.io/cluster-name: ${clusterName}
  template:
    metadata:
      labels:
        cluster.x-k8s.io/cluster-name: ${clusterName}
    spec:
      clusterName: ${clusterName}
      version: v1.33.1
      bootstrap:
        configRef:
          apiGroup: bootstrap.cluster.x-k8s.io
          kind: KubeadmConfigTemplate
          name: cpu-workers
      infrastructureRef:
        apiGroup: infrastructure.cluster.x-k8s.io
        kind: ${infrastructure.templateKind}
        name: cpu-workers
---
apiVersion: infrastructure.cluster.x-k8s.io/v1beta2
kind: ${infrastructure.templateKind}
metadata:
  name: cpu-workers
  namespace: ${namespace}
spec:
  template:
    spec:
${infrastructure.handWrittenSpec}---
apiVersion: bootstrap.cluster.x-k8s.io/v1beta2
kind: KubeadmConfigTemplate
metadata:
  name: cpu-workers
  namespace: ${namespace}
spec:
  template:
    spec:
      joinConfiguration:
        nodeRegistration:
          kubeletExtraArgs:
            - name: node-labels
              value: tier=cpu
`;
}

describe.each(INFRASTRUCTURES)(
  'Cluster API on $label: bootstrap, every sharing mode, a changed machine, release',
  infrastructure => {
    const { cluster, catalog, templateKind } = infrastructure;
    const gpuFolder = `clusters/${cluster.name}/gpu`;
    const handWrittenPath = `${gpuFolder}/nodepools/cpu-workers.yaml`;
    const handWrittenText = handWritten(infrastructure);
    const requests = everyModeRequests(cluster.name, 'a100-40gb', 9);
    const pools = new Map<string, string>();
    let dir: string;
    let tree: FsRepoTree;

    const poolFile = async (poolPath: string) =>
      parseAllDocuments((await tree.readFile(poolPath))!).map(d => d.toJS());

    beforeAll(async () => {
      dir = await fs.mkdtemp(path.join(os.tmpdir(), 'gpu-capi-infra-'));
      tree = new FsRepoTree(dir);
      const bootstrap = await buildBootstrapChangeSet(tree, cluster, {
        operatorChartVersion: 'v26.7.0',
        binPacking: false,
      });
      await writeChangeSet(tree, bootstrap);
      await fs.mkdir(path.dirname(path.join(dir, handWrittenPath)), {
        recursive: true,
      });
      await fs.writeFile(path.join(dir, handWrittenPath), handWrittenText);
      const kustomization = path.join(dir, gpuFolder, 'kustomization.yaml');
      const listed = parseDocument(await fs.readFile(kustomization, 'utf8'));
      listed.addIn(['resources'], 'nodepools/cpu-workers.yaml');
      await fs.writeFile(kustomization, listed.toString());
      // The team's DRA driver, for the dra request (the bootstrap installs none).
      await deployDraDriver(dir, gpuFolder);
    });
    afterAll(async () => {
      await fs.rm(dir, { recursive: true, force: true });
    });

    it('the bootstrap writes nothing Karpenter', async () => {
      const files = await tree.listFiles(`clusters/${cluster.name}`);
      const texts = await Promise.all(files.map(f => tree.readFile(f)));
      expect(texts.join('\n')).not.toMatch(/karpenter|NodeClass|NodePool/);
    });

    it.each(
      requests.map(r => [`${r.metadata.name} (${r.spec.gpu.sharing})`, r]),
    )(
      '%s: merges, builds, and re-planning from the repository changes nothing',
      async (_label, gpuRequest) => {
        const request = gpuRequest as GpuRequest;
        const change = await buildRequestChange({
          tree,
          dir,
          request,
          cluster,
          catalog,
        });
        // The model: its pods land on the planned pool and on no other pool built.
        expect(change.verification?.landsOn).toEqual([change.plan.pool.name]);
        await writeChangeSet(tree, change.changeSet);
        const poolPath = `${gpuFolder}/nodepools/${change.plan.pool.name}.yaml`;
        pools.set(request.metadata.name, poolPath);
        const objects = await poolFile(poolPath);
        expect(objects.map(o => o.kind)).toEqual([
          'MachineDeployment',
          templateKind,
          'KubeadmConfigTemplate',
        ]);
        expect(objects[0].spec.replicas).toBe(change.plan.nodes.expected);
        expect(objects[0].spec.template.spec.infrastructureRef).toEqual({
          apiGroup: 'infrastructure.cluster.x-k8s.io',
          kind: templateKind,
          name: objects[1].metadata.name,
        });
        expect(objects[1].spec.template.metadata.labels).toEqual({
          'gpu.backstage.io/machine': change.plan.nodes.instanceType,
        });
        const again = await buildRequestChange({
          tree,
          dir,
          request,
          cluster,
          catalog,
        });
        expect(again.plan.pool.name).toBe(change.plan.pool.name);
        expect(again.plan.pool.reused).toBe(true);
        expect(again.plan.nodes.instanceType).toBe(
          change.plan.nodes.instanceType,
        );
        expect(again.changeSet.empty).toBe(true);
      },
    );

    it("leaves a tree that builds, validates clean, reads back every pool's machine, and the hand-written workers untouched", async () => {
      const built = await kustomizeBuild(path.join(dir, gpuFolder));
      const kinds = built.map(o => o.kind);
      expect(kinds).not.toContain('NodePool');
      expect(kinds).not.toContain('NodeOverlay');
      expect(
        built
          .filter(o => o.kind === 'MachineDeployment')
          .map(o => o.metadata.name)
          .sort(),
      ).toEqual(
        [
          'cpu-workers',
          ...[...new Set(pools.values())].map(p => path.basename(p, '.yaml')),
        ].sort(),
      );
      expect(await validateGitOpsTree(dir, { cluster, catalog })).toEqual([]);
      const state = await readRepoState(tree, undefined, cluster.name, {
        catalog,
      });
      // Each pool reads as the machine its template names, a catalog machine of the infrastructure.
      for (const pool of state.pools) {
        const objects = await poolFile(pool.path);
        expect(pool.instanceTypes).toEqual([
          objects[1].spec.template.metadata.labels['gpu.backstage.io/machine'],
        ]);
        expect(
          catalog.instanceTypes.find(t => t.name === pool.instanceTypes[0])
            ?.provider,
        ).toBe(cluster.clusterApi!.infrastructure);
      }
      expect(state.pools.map(p => p.name).sort()).toEqual(
        [
          ...new Set([...pools.values()].map(p => path.basename(p, '.yaml'))),
        ].sort(),
      );
      expect(state.otherNodePools).toContain('cpu-workers');
      expect(await tree.readFile(handWrittenPath)).toBe(handWrittenText);
    });

    it('a machine the catalog gains later moves no pool: a pool keeps the machine its template names', async () => {
      const request = requests[1]; // t4-ts
      const poolPath = pools.get(request.metadata.name)!;
      const machine = (await poolFile(poolPath))[1].spec.template.metadata
        .labels['gpu.backstage.io/machine'];
      const grown = mergeCatalog(catalog, {
        instanceTypes: [infrastructure.preferredT4],
      });
      const again = await buildRequestChange({
        tree,
        dir,
        request,
        cluster,
        catalog: grown,
      });
      expect(again.plan.pool.reused).toBe(true);
      expect(again.plan.nodes.instanceType).toBe(machine);
      expect(again.changeSet.empty).toBe(true);
      // A new pool of the same GPU would take the new machine.
      const fresh = await buildRequestChange({
        tree,
        dir,
        request: mlRequest(
          't4-fresh',
          {
            model: 't4',
            sharing: 'time-slicing',
            replicas: 2,
            vramGiB: 6,
            slicesPerGpu: 2,
          },
          { cluster: cluster.name },
        ),
        cluster,
        catalog: grown,
      });
      expect(fresh.plan.pool.reused).toBe(false);
      expect(fresh.plan.nodes.instanceType).toBe(
        infrastructure.preferredT4.name,
      );
    });

    it('a changed machine is a new template the MachineDeployment moves to; the old one stays until the pool goes', async () => {
      const request = requests[0]; // t4-exclusive
      const poolPath = pools.get(request.metadata.name)!;
      const before = await poolFile(poolPath);
      const change = await buildRequestChange({
        tree,
        dir,
        request,
        ...infrastructure.changed,
      });
      expect(change.plan.pool.reused).toBe(true);
      await writeChangeSet(tree, change.changeSet);
      const after = await poolFile(poolPath);
      expect(after.map(o => o.kind)).toEqual([
        'MachineDeployment',
        templateKind,
        'KubeadmConfigTemplate',
        templateKind,
      ]);
      // The templates already written are never edited...
      expect(after.slice(1, 3)).toEqual(before.slice(1, 3));
      // ...the new one is referenced instead, and Cluster API rolls the nodes.
      const added = after[3];
      expect(added.metadata.name).not.toBe(before[1].metadata.name);
      expect(after[0].spec.template.spec.infrastructureRef.name).toBe(
        added.metadata.name,
      );
      expect(after[0].spec.template.spec.bootstrap).toEqual(
        before[0].spec.template.spec.bootstrap,
      );
      const again = await buildRequestChange({
        tree,
        dir,
        request,
        ...infrastructure.changed,
      });
      expect(again.changeSet.empty).toBe(true);
      expect(
        await validateGitOpsTree(dir, {
          cluster: infrastructure.changed.cluster,
          catalog: infrastructure.changed.catalog,
        }),
      ).toEqual([]);
      expect(await tree.readFile(handWrittenPath)).toBe(handWrittenText);
    });

    it('releasing every request removes every pool and its templates, and nothing else', async () => {
      for (const request of requests) {
        await releaseOnDisk(
          tree,
          dir,
          request.metadata.name,
          infrastructure.changed.cluster,
          infrastructure.changed.catalog,
        );
      }
      for (const poolPath of pools.values()) {
        expect(await tree.readFile(poolPath)).toBeUndefined();
      }
      const kustomization = await tree.readFile(
        `${gpuFolder}/kustomization.yaml`,
      );
      for (const poolPath of pools.values()) {
        expect(kustomization).not.toContain(path.basename(poolPath));
      }
      const built = await kustomizeBuild(path.join(dir, gpuFolder));
      expect(
        built
          .filter(
            o => o.kind === 'MachineDeployment' || o.kind === templateKind,
          )
          .map(o => `${o.kind}/${o.metadata.name}`)
          .sort(),
      ).toEqual([
        `MachineDeployment/cpu-workers`,
        `${templateKind}/cpu-workers`,
      ]);
      expect(await tree.readFile(handWrittenPath)).toBe(handWrittenText);
      expect(
        await validateGitOpsTree(dir, {
          cluster: infrastructure.changed.cluster,
          catalog: infrastructure.changed.catalog,
        }),
      ).toEqual([]);
    });
  },
);
