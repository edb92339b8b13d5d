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
import { readRepoState } from '../../repo/readRepoState';
import { buildRequestChange } from '../buildRequestChange';
import { buildReleaseChange } from '../release/buildReleaseChange';
import { writeChangeSet } from '../stagedTree';
import {
  SHAPE_OWNER,
  bootstrapShape,
  refusalOf,
  shapeRequest,
  snapshot,
  withShapeRepository,
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

  withShapeRepository('capo-clusterclass-repo', 'gpu-shape-cc-', checkout => {
    ({ tree } = checkout);
  });

  it('validate finds nothing wrong in the untouched repository', async () => {
    expect(await validateGitOpsTree(tree.root, { cluster, catalog })).toEqual(
      [],
    );
  });

  it('the import recognises the topology’s GPU workers and, their nodes without the pool label, says what to add, changing nothing', async () => {
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
        "GPU workers of its managed topology, not adopted: the entry `md-0` of `spec.topology.workers.machineDeployments` (g2.5xlarge: 1 × t4 per node); its nodes do not carry gpu.backstage.io/pool=md-0, the label the product's pods select, and the product does not change the worker class's bootstrap template (dev-test-default-worker-bootstraptemplate: every entry of the class joins with it). Add `gpu.backstage.io/pool=md-0` to the `node-labels` of the class's bootstrap template",
      ),
    });
    expect(await snapshot(tree)).toEqual(before);
  });

  describe('bootstrapped, the Cluster labelled as the bootstrap said, bootstrapped again', () => {
    let bootstrapped: Record<string, string>;
    const bootstrap = () => bootstrapShape(tree, cluster);

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
      const error = await refusalOf(
        tree,
        shapeRequest('t4-exclusive', {
          cluster: 'ml-os',
          gpu: { model: 't4', sharing: 'exclusive', replicas: 2, vramGiB: 12 },
          workload: { image: 'ghcr.io/acme/t4-exclusive:1.0' },
        }),
        cluster,
        catalog,
      );
      expect(isGpuInputError(error)).toBe(true);
      expect(error.issues).toEqual([
        {
          path: 'spec.cluster',
          rule: 'cluster-managed-topology',
          message:
            'Cluster "ml-os" is managed by its ClusterClass "dev-test" (`spec.topology` in clusters/ml-os/): the new pool gpu-t4 would be a MachineDeployment outside that topology, which Cluster API never upgrades with the cluster, so none is written. Add the pool to the topology: to ClusterClass "dev-test" a worker class in `spec.workers.machineDeployments` whose infrastructure template is a OpenStackMachineTemplate of machine `g2.5xlarge` and whose bootstrap template registers its nodes with `node-labels` `gpu.backstage.io/gpu-model=t4,gpu.backstage.io/pool=gpu-t4,gpu.backstage.io/sharing=exclusive` and the taint `nvidia.com/gpu=gpu-t4:NoSchedule`; and to Cluster "ml-os" the entry `{class: <that class>, name: gpu-t4, replicas: 2}` in `spec.topology.workers.machineDeployments`; then `import` adopts the entry (its pool annotations go on it) and requests reuse it. Nothing was written.',
        },
      ]);
      expect(await snapshot(tree)).toEqual(bootstrapped);
    });
  });
  describe('the team registers md-0’s nodes with the pool label: import, request, validate, release, validate', () => {
    let imported: Record<string, string>;
    const request = shapeRequest('t4-chat', {
      cluster: 'ml-os',
      gpu: { model: 't4', sharing: 'exclusive', replicas: 2, vramGiB: 12 },
      workload: { image: 'ghcr.io/acme/t4-chat:1.0' },
    });

    beforeAll(async () => {
      // What the import's note asks for: the GPU worker class's bootstrap
      // template registers its nodes with the product's pool label.
      const file = path.join(tree.root, 'clusters/ml-os/clusterclass.yaml');
      const text = await fs.readFile(file, 'utf8');
      const labelled = text.replace(
        '          - name: provider-id\n            value: "openstack:///{{ v1.instance_id }}"\n          name: "{{ v1.local_hostname }}"\n---\napiVersion: controlplane',
        '          - name: provider-id\n            value: "openstack:///{{ v1.instance_id }}"\n          - name: node-labels\n            value: gpu.backstage.io/pool=md-0\n          name: "{{ v1.local_hostname }}"\n---\napiVersion: controlplane',
      );
      if (labelled === text) {
        throw new Error('the fixture’s worker bootstrap template moved');
      }
      await fs.writeFile(file, labelled);
    });

    it('the import adopts the entry md-0 in place (annotations on the entry only) and records the team’s Deployment on it', async () => {
      const before = await snapshot(tree);
      const result = await buildImportChange({
        tree,
        dir: tree.root,
        cluster,
        catalog,
        owner: SHAPE_OWNER,
      });
      expect(result.changeSet.changes.map(c => c.path).sort()).toEqual([
        'clusters/ml-os/cluster.yaml',
        'requests/ml/embedder.yaml',
      ]);
      await writeChangeSet(tree, result.changeSet);
      imported = await snapshot(tree);
      // Only the entry's metadata was added; every line of the Cluster kept.
      const cluster0 = before['clusters/ml-os/cluster.yaml'];
      expect(imported['clusters/ml-os/cluster.yaml']).toBe(
        cluster0.replace(
          '        name: md-0\n        replicas: 2\n',
          [
            '        name: md-0',
            '        replicas: 2',
            '        metadata:',
            '          annotations:',
            '            gpu.backstage.io/requests: ml/embedder=2',
            '            gpu.backstage.io/sharing-mode: exclusive',
            '            gpu.backstage.io/resource-name: nvidia.com/gpu',
            '            gpu.backstage.io/gpu-model: t4',
            '            gpu.backstage.io/limit-floor: "2"',
            '',
          ].join('\n'),
        ),
      );
      const state = await readRepoState(tree, undefined, 'ml-os', { catalog });
      expect(
        state.pools.map(p => [p.name, p.path, p.gpuModel, p.limitFloor]),
      ).toEqual([['md-0', 'clusters/ml-os/cluster.yaml', 't4', 2]]);
      expect(state.workloads.map(w => [w.id, w.pool, w.replicas])).toEqual([
        ['ml/embedder', 'md-0', 2],
      ]);
      expect(await validateGitOpsTree(tree.root, { cluster, catalog })).toEqual(
        [],
      );
    });

    it('a request grows the entry md-0 (its replicas and ledger on the entry), its pods land on md-0 only, validate is clean, and the release gives every file back byte for byte; a second import changes nothing', async () => {
      const change = await buildRequestChange({
        tree,
        dir: tree.root,
        request,
        cluster,
        catalog,
      });
      expect(change.plan.pool).toMatchObject({ name: 'md-0', reused: true });
      expect(change.verification?.landsOn).toEqual(['md-0']);
      await writeChangeSet(tree, change.changeSet);
      const merged = await snapshot(tree);
      expect(merged['clusters/ml-os/cluster.yaml']).toContain(
        '        name: md-0\n        replicas: 4\n',
      );
      expect(merged['clusters/ml-os/cluster.yaml']).toContain(
        'gpu.backstage.io/requests: ml/embedder=2, ml/t4-chat=2',
      );
      // No MachineDeployment beside the topology: the new files are the
      // request's record and its workload.
      const added = Object.keys(merged).filter(p => !(p in imported));
      expect(added.sort()).toEqual([
        'apps/ml/t4-chat/deployment.yaml',
        'apps/ml/t4-chat/kustomization.yaml',
        'requests/ml/t4-chat.yaml',
      ]);
      expect(await validateGitOpsTree(tree.root, { cluster, catalog })).toEqual(
        [],
      );
      const release = await buildReleaseChange({
        tree,
        dir: tree.root,
        request: request.metadata,
        clusterProfile: () => cluster,
        catalog,
      });
      await writeChangeSet(tree, release.changeSet);
      expect(await snapshot(tree)).toEqual(imported);
      expect(await validateGitOpsTree(tree.root, { cluster, catalog })).toEqual(
        [],
      );
      // Adopted already: a second import changes nothing.
      const again = await buildImportChange({
        tree,
        dir: tree.root,
        cluster,
        catalog,
        owner: SHAPE_OWNER,
      });
      expect(again.changeSet.changes).toEqual([]);
    });
  });
});
