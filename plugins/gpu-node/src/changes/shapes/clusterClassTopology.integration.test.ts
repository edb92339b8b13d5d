/**
 * A platform team's round on a Cluster API cluster on OpenStack whose
 * workers its ClusterClass's managed topology owns
 * (`test/fixtures/capo-clusterclass-repo`: CAPO's own `dev-test`
 * ClusterClass and topology Cluster, a T4 flavor for `md-0`): validate on
 * the untouched repository, import, bootstrap, then a request whose pool
 * would be a MachineDeployment beside the topology.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import {
  isGpuInputError,
  resolveClusterProfile,
} from '@gpu-gitops/plugin-gpu-common';
import { seedOpenStackCatalog } from '@gpu-gitops/plugin-gpu-common/src/providers/__testUtils__/openStackFlavors';
import { buildImportChange } from '../../import/buildImportChange';
import type { FsRepoTree } from '../../repo/tree';
import { validateGitOpsTree } from '../../validate/validateGitOpsTree';
import { buildBootstrapChangeSet } from '../bootstrap/bootstrapChangeSet';
import { buildRequestChange } from '../buildRequestChange';
import { writeChangeSet } from '../stagedTree';
import {
  checkoutShape,
  shapeRequest,
  snapshot,
  SHAPE_OWNER,
} from './__testUtils__/shapeRound';

// The import, the bootstrap and a request each build with the real kustomize.
jest.setTimeout(300_000);

const catalog = seedOpenStackCatalog;

const cluster = resolveClusterProfile({
  name: 'ml-os',
  provider: 'cluster-api',
  migStrategy: 'single',
  gpuTaintKey: 'nvidia.com/gpu',
  clusterApi: {
    clusterName: 'ml-os',
    namespace: 'default',
    infrastructure: 'openstack',
    kubernetesVersion: 'v1.33.1',
    autoscaler: false,
    openStack: { imageName: 'node-image' },
  },
});

describe('a ClusterClass-managed Cluster API cluster on OpenStack', () => {
  let tree: FsRepoTree;

  beforeAll(async () => {
    tree = await checkoutShape('capo-clusterclass-repo', 'gpu-shape-cc-');
    await fs.rm(path.join(tree.root, 'README.md'));
  });
  afterAll(() => fs.rm(tree.root, { recursive: true, force: true }));

  it('validate finds nothing wrong in the untouched repository', async () => {
    expect(await validateGitOpsTree(tree.root, { cluster, catalog })).toEqual(
      [],
    );
  });

  it('the import recognises the topology’s GPU workers and says why it leaves them, changing nothing', async () => {
    const before = await snapshot(tree);
    const imported = await buildImportChange({
      tree,
      dir: tree.root,
      cluster,
      catalog,
      owner: SHAPE_OWNER,
    });
    expect(imported.changeSet.changes).toEqual([]);
    expect(imported.findings).toContainEqual({
      kind: 'note',
      path: 'clusters/ml-os/cluster.yaml',
      object: 'Cluster "ml-os"',
      message: expect.stringContaining(
        'the entry `md-0` of `spec.topology.workers.machineDeployments` (g2.5xlarge: 1 × t4 per node) becomes a MachineDeployment the topology controller owns',
      ),
    });
    expect(await snapshot(tree)).toEqual(before);
  });

  describe('bootstrapped, the Cluster labelled as the bootstrap said, bootstrapped again', () => {
    let bootstrapped: Record<string, string>;
    const bootstrap = async () =>
      writeChangeSet(
        tree,
        await buildBootstrapChangeSet(tree, cluster, {
          operatorChartVersion: 'v26.7.0',
          binPacking: false,
        }),
      );

    beforeAll(async () => {
      await bootstrap();
      const file = path.join(tree.root, 'clusters/ml-os/cluster.yaml');
      const text = await fs.readFile(file, 'utf8');
      await fs.writeFile(
        file,
        text.replace(
          '  name: ml-os\n',
          '  name: ml-os\n  labels:\n    gpu-configs: ml-os\n',
        ),
      );
      await bootstrap();
      bootstrapped = await snapshot(tree);
    });

    it('validate still finds nothing wrong', async () => {
      expect(await validateGitOpsTree(tree.root, { cluster, catalog })).toEqual(
        [],
      );
    });

    it('refuses a new pool beside the topology, saying what to add to the ClusterClass and the Cluster, and writes nothing', async () => {
      const error = await buildRequestChange({
        tree,
        dir: tree.root,
        request: shapeRequest('t4-exclusive', {
          cluster: 'ml-os',
          gpu: { model: 't4', sharing: 'exclusive', replicas: 2, vramGiB: 12 },
          workload: { image: 'ghcr.io/acme/t4-exclusive:1.0' },
        }),
        cluster,
        catalog,
      }).catch(e => e);
      expect(isGpuInputError(error)).toBe(true);
      expect(error.issues).toEqual([
        {
          path: 'spec.cluster',
          rule: 'cluster-managed-topology',
          message:
            'Cluster "ml-os" is managed by its ClusterClass "dev-test" (`spec.topology` in clusters/ml-os/): the new pool gpu-t4 would be a MachineDeployment outside that topology, which Cluster API never upgrades with the cluster, so none is written. Add the pool to the topology: to ClusterClass "dev-test" a worker class in `spec.workers.machineDeployments` whose infrastructure template is a OpenStackMachineTemplate of machine `g2.5xlarge` and whose bootstrap template registers its nodes with `node-labels` `gpu.backstage.io/gpu-model=t4,gpu.backstage.io/pool=gpu-t4,gpu.backstage.io/sharing=exclusive` and the taint `nvidia.com/gpu=gpu-t4:NoSchedule`; and to Cluster "ml-os" the entry `{class: <that class>, name: gpu-t4, replicas: 2}` in `spec.topology.workers.machineDeployments`. Nothing was written.',
        },
      ]);
      expect(await snapshot(tree)).toEqual(bootstrapped);
    });
  });
});
