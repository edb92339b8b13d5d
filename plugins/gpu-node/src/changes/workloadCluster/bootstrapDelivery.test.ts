/**
 * The bootstrap's delivery of the GPU ConfigMaps on a Cluster API
 * management repository, by the Cluster its folder declares: the
 * ClusterResourceSet follows the Cluster's API version (validated against
 * Cluster API v1.14.0's CRD, which serves v1beta1 and v1beta2), an
 * unlabelled Cluster gets a note instead, and a folder without a Cluster
 * (the workload cluster's own repository) gets nothing.
 */
import { parseAllDocuments, parseDocument } from 'yaml';
import { resolveClusterProfile } from '@gpu-gitops/plugin-gpu-common';
import { crdSchemaErrors } from '@gpu-gitops/plugin-gpu-common/src/manifests/__testUtils__/crdSchemas';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { kustomizeBuild } from '../../kustomize/build';
import { FsRepoTree, MemoryRepoTree } from '../../repo/tree';
import { StagedTree, writeChangeSet } from '../stagedTree';
import { carriedToWorkloadClusters } from './carriedManifests';
import { buildBootstrapChangeSet } from '../bootstrap/bootstrapChangeSet';
import { bootstrapGpuConfigsDelivery } from './bootstrapDelivery';
import { workloadClusterIn } from './managementCluster';

// Bootstraps written to disk and built with the real kustomize.
jest.setTimeout(180_000);

const cluster = resolveClusterProfile({
  name: 'lab',
  provider: 'cluster-api',
  devicePluginConfigMap: { namespace: 'gpu-operator' },
  clusterApi: {
    clusterName: 'lab-1',
    namespace: 'capi',
    infrastructure: 'aws',
    kubernetesVersion: 'v1.33.1',
    autoscaler: false,
    aws: { iamInstanceProfile: 'nodes' },
  },
});

const GPU_KUSTOMIZATION = 'clusters/lab/gpu/kustomization.yaml';
const files = (clusterYaml: string) => ({
  'clusters/lab/cluster.yaml': clusterYaml,
  [GPU_KUSTOMIZATION]: [
    'resources: []',
    'configMapGenerator:',
    '  - name: nvidia-device-plugin-configs',
    '    namespace: gpu-operator',
    '    files:',
    '      - default=device-plugin/default.yaml',
    '',
  ].join('\n'),
  'clusters/lab/gpu/device-plugin/default.yaml':
    'version: v1\nflags:\n  migStrategy: none\n',
});

async function bootstrap(clusterYaml: string) {
  const tree = new MemoryRepoTree(files(clusterYaml));
  const staged = new StagedTree(tree);
  const notes = await bootstrapGpuConfigsDelivery(
    staged,
    await workloadClusterIn(tree, 'clusters/lab', cluster),
    cluster,
    GPU_KUSTOMIZATION,
  );
  return { notes, changes: staged.toChangeSet().changes };
}

describe('bootstrapGpuConfigsDelivery', () => {
  it('a v1beta2 Cluster: a v1beta2 ClusterResourceSet selecting its labels, carrying the device-plugin ConfigMap, listed in the GPU kustomization', async () => {
    const { notes, changes } = await bootstrap(
      'apiVersion: cluster.x-k8s.io/v1beta2\nkind: Cluster\nmetadata:\n  name: lab-1\n  namespace: capi\n  labels:\n    gpu: nvidia\nspec: {}\n',
    );
    expect(changes.map(c => c.path)).toEqual([
      GPU_KUSTOMIZATION,
      'clusters/lab/gpu/workload-cluster.yaml',
    ]);
    const [kustomization, delivery] = changes.map(c =>
      c.action === 'delete' ? '' : c.content,
    );
    expect(kustomization).toContain('resources:\n  - workload-cluster.yaml\n');
    // kustomize leaves what the GPU folder generates out of every build.
    expect(parseAllDocuments(kustomization)[0].toJS().generatorOptions).toEqual(
      {
        annotations: { 'config.kubernetes.io/local-config': 'true' },
      },
    );
    const [set, holder] = parseAllDocuments(delivery).map(d => d.toJS());
    expect(set.apiVersion).toBe('addons.cluster.x-k8s.io/v1beta2');
    expect(set.metadata).toMatchObject({
      name: 'lab-1-gpu-configs',
      namespace: 'capi',
    });
    expect(set.spec.clusterSelector).toEqual({
      matchLabels: { gpu: 'nvidia' },
    });
    expect(
      crdSchemaErrors(
        set,
        'capi-v1.14.0_addons.cluster.x-k8s.io_clusterresourcesets.yaml',
      ),
    ).toEqual([]);
    expect(
      parseAllDocuments(holder.data['gpu-configs.yaml']).map(d => d.toJS()),
    ).toEqual([
      {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: {
          name: 'nvidia-device-plugin-configs',
          namespace: 'gpu-operator',
        },
        data: { default: 'version: v1\nflags:\n  migStrategy: none\n' },
      },
    ]);
    expect(notes.join('\n')).toContain(
      'ClusterResourceSet `capi/lab-1-gpu-configs`',
    );
  });

  it('an unlabelled Cluster: nothing written, the note says to label it', async () => {
    const { notes, changes } = await bootstrap(
      'apiVersion: cluster.x-k8s.io/v1beta1\nkind: Cluster\nmetadata:\n  name: lab-1\nspec: {}\n',
    );
    expect(changes).toEqual([]);
    expect(notes).toEqual([
      expect.stringContaining('label its Cluster (e.g. `gpu-configs: lab-1`)'),
    ]);
  });

  it('no Cluster in the folder (the workload cluster applies it): nothing', async () => {
    expect(
      await bootstrap(
        'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: ml\n',
      ),
    ).toEqual({ notes: [], changes: [] });
  });

  it('the bootstrap’s own GPU Operator release is the workload cluster’s: a HelmChartProxy selecting the Cluster’s labels, applied by the management cluster, valid against CAAPH’s CRD; a second bootstrap changes nothing', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'gpu-mgmt-proxy-'));
    try {
      const tree = new FsRepoTree(dir);
      await tree.writeFile(
        'clusters/lab/kustomization.yaml',
        'resources:\n  - cluster.yaml\n',
      );
      await tree.writeFile(
        'clusters/lab/cluster.yaml',
        'apiVersion: cluster.x-k8s.io/v1beta1\nkind: Cluster\nmetadata:\n  name: lab-1\n  namespace: capi\n  labels:\n    gpu: nvidia\nspec: {}\n',
      );
      const options = { operatorChartVersion: 'v26.7.0', binPacking: false };
      const change = await buildBootstrapChangeSet(tree, cluster, options);
      // No kustomize release nothing would apply to the workload cluster.
      expect(
        change.changes.filter(c =>
          c.path.startsWith('clusters/lab/gpu-operator/'),
        ),
      ).toEqual([]);
      await writeChangeSet(tree, change);
      const built = await kustomizeBuild(path.join(dir, 'clusters/lab'));
      const proxies = built.filter(o => o.kind === 'HelmChartProxy');
      expect(proxies).toHaveLength(1);
      const [proxy] = proxies as any[];
      expect(proxy.metadata).toMatchObject({
        name: 'gpu-operator',
        namespace: 'capi',
      });
      expect(proxy.spec).toMatchObject({
        clusterSelector: { matchLabels: { gpu: 'nvidia' } },
        repoURL: 'https://helm.ngc.nvidia.com/nvidia',
        chartName: 'gpu-operator',
        version: 'v26.7.0',
        namespace: 'gpu-operator',
      });
      // Its values are the ones the bootstrap writes for its own release.
      expect(parseDocument(proxy.spec.valuesTemplate).toJS()).toMatchObject({
        devicePlugin: { config: { name: 'nvidia-device-plugin-configs' } },
      });
      expect(
        crdSchemaErrors(
          proxy,
          'caaph-v0.6.4_addons.cluster.x-k8s.io_helmchartproxies.yaml',
        ),
      ).toEqual([]);
      const notes = change.notes.join('\n');
      expect(notes).toContain(
        'installs it there from HelmChartProxy `capi/gpu-operator`',
      );
      expect(notes).not.toContain('is for the workload cluster `lab-1`');
      const again = await buildBootstrapChangeSet(tree, cluster, options);
      expect(again.changes).toEqual([]);
      expect(again.gpuOperatorRelease).toBe('bootstrap');
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });

  describe('the bin-packing scheduler (bootstrap with binPacking)', () => {
    const managementRepo = (labels: string) => ({
      'clusters/lab/kustomization.yaml': 'resources:\n  - cluster.yaml\n',
      'clusters/lab/cluster.yaml': `apiVersion: cluster.x-k8s.io/v1beta1\nkind: Cluster\nmetadata:\n  name: lab-1\n  namespace: capi\n${labels}spec: {}\n`,
    });
    let dir: string;
    beforeEach(async () => {
      dir = await fs.mkdtemp(path.join(os.tmpdir(), 'gpu-mgmt-scheduler-'));
    });
    afterEach(() => fs.rm(dir, { recursive: true, force: true }));

    async function bootstrapOnDisk(files: Record<string, string>) {
      const tree = new FsRepoTree(dir);
      for (const [file, content] of Object.entries(files)) {
        await tree.writeFile(file, content);
      }
      const change = await buildBootstrapChangeSet(
        tree,
        { ...cluster, kubernetesVersion: '1.33.1' },
        {
          operatorChartVersion: 'v26.7.0',
          binPacking: true,
        },
      );
      await writeChangeSet(tree, change);
      return {
        change,
        built: await kustomizeBuild(path.join(dir, 'clusters/lab')),
      };
    }

    it('runs in the workload cluster: the management cluster applies none of its objects, the ClusterResourceSet carries them all', async () => {
      const { change, built } = await bootstrapOnDisk(
        managementRepo('  labels:\n    gpu: nvidia\n'),
      );
      const schedulerKinds = [
        'Deployment',
        'ServiceAccount',
        'ClusterRoleBinding',
        'RoleBinding',
        'Role',
      ];
      expect(built.filter(o => schedulerKinds.includes(o.kind))).toEqual([]);
      const carried = carriedToWorkloadClusters(built) as {
        kind: string;
        metadata: { name: string; namespace?: string };
      }[];
      const deployment = carried.find(o => o.kind === 'Deployment');
      expect(deployment?.metadata).toMatchObject({
        name: 'gpu-binpack',
        namespace: 'kube-system',
      });
      // Every scheduler object reaches the workload cluster.
      const scheduler = change.changes.find(c =>
        c.path.endsWith('scheduler/gpu-binpack.yaml'),
      );
      const carrier = parseAllDocuments(
        scheduler && scheduler.action !== 'delete' ? scheduler.content : '',
      ).map(d => d.toJS());
      expect(carrier.map(o => o.kind)).toEqual(['ConfigMap']);
      const objects = parseAllDocuments(
        carrier[0].data['gpu-binpack.yaml'],
      ).map(d => d.toJS());
      expect(objects.length).toBeGreaterThan(4);
      for (const o of objects) {
        expect(carried).toContainEqual(o);
      }
      const set = built.find(o => o.kind === 'ClusterResourceSet')!;
      expect(
        crdSchemaErrors(
          set,
          'capi-v1.14.0_addons.cluster.x-k8s.io_clusterresourcesets.yaml',
        ),
      ).toEqual([]);
      expect(change.notes.join('\n')).toContain(
        'The gpu-binpack scheduler runs in the workload cluster `lab-1`',
      );
    });

    it('an unlabelled Cluster: no scheduler written, the note says what to label', async () => {
      const { change, built } = await bootstrapOnDisk(managementRepo(''));
      expect(built.filter(o => o.kind === 'Deployment')).toEqual([]);
      expect(
        change.changes.filter(c => c.path.includes('/scheduler/')),
      ).toEqual([]);
      expect(change.notes.join('\n')).toContain(
        'The gpu-binpack scheduler is not written',
      );
    });
  });
});
