/**
 * A platform team's round on a GKE Standard cluster
 * (`test/fixtures/gke-computeclass-repo`, origins in its README): the team's
 * own CPU ComputeClass, GKE's driver and device plugin. One request of each
 * sharing mode GKE runs (exclusive T4, time-sharing and MPS on an L4, MIG on
 * an A100) becomes a ComputeClass of the planned machine and GKE sharing,
 * valid against the ComputeClass schema, its pods land on that class only,
 * the tree validates clean, and its release gives every file back; DRA is
 * refused with GKE's reason, nothing written.
 */
import { parseAllDocuments } from 'yaml';
import {
  builtinCatalog,
  resolveClusterProfile,
} from '@gpu-gitops/plugin-gpu-common';
import { crdSchemaErrors } from '@gpu-gitops/plugin-gpu-common/src/manifests/__testUtils__/crdSchemas';
import { FsRepoTree } from '../../repo/tree';
import { validateGitOpsTree } from '../../validate/validateGitOpsTree';
import { buildRequestChange } from '../buildRequestChange';
import { buildReleaseChange } from '../release/buildReleaseChange';
import { writeChangeSet } from '../stagedTree';
import {
  expectLandsOnPlannedPool,
  requestThenRelease,
  shapeRequest,
  snapshot,
  withShapeRepository,
} from './__testUtils__/shapeRound';

// Each request and release built with the real kustomize.
jest.setTimeout(300_000);

const cluster = resolveClusterProfile({
  name: 'gke-ml',
  provider: 'gke',
  region: 'us-central1',
  kubernetesVersion: '1.35.2',
});

const CRD = 'gke-cloud.google.com_computeclasses.yaml';

describe('the GKE repository with a team’s own compute class', () => {
  let tree: FsRepoTree;
  let untouched: Record<string, string>;

  withShapeRepository('gke-computeclass-repo', 'gpu-shape-gke-', checkout => {
    ({ tree, original: untouched } = checkout);
  });

  it.each([
    [
      't4-exclusive',
      { model: 't4', sharing: 'exclusive', replicas: 2, vramGiB: 12 },
      undefined,
    ],
    [
      'l4-ts',
      {
        model: 'l4',
        sharing: 'time-slicing',
        replicas: 6,
        vramGiB: 4,
        slicesPerGpu: 4,
      },
      { sharingStrategy: 'TIME_SHARING', maxSharedClientsPerGPU: 4 },
    ],
    [
      'l4-mps',
      { model: 'l4', sharing: 'mps', replicas: 4, vramGiB: 5 },
      { sharingStrategy: 'MPS', maxSharedClientsPerGPU: 4 },
    ],
    [
      'a100-mig',
      { model: 'a100-40gb', sharing: 'mig', replicas: 3, vramGiB: 9 },
      { gpuPartitionSize: '2g.10gb' },
    ],
  ])(
    '%s: a ComputeClass of the planned machine and GKE sharing, pods landing on it only, clean, released to the byte',
    async (name, gpu, gpuSharing) => {
      const { change, findings } = await requestThenRelease(
        tree,
        shapeRequest(name, {
          gpu,
          workload: { image: `ghcr.io/acme/${name}:1.0` },
        }),
        cluster,
      );
      const pool = change.changeSet.changes.find(c =>
        c.path.endsWith(`/${change.plan.pool.name}.yaml`),
      );
      const objects = parseAllDocuments(
        pool && pool.action !== 'delete' ? pool.content : '',
      ).map(d => d.toJS());
      expect(objects.map(o => o.kind)).toEqual(['ComputeClass']);
      // Each rule written out in full, no YAML anchor or alias a reviewer must resolve.
      expect(pool && pool.action !== 'delete' ? pool.content : '').not.toMatch(
        /[&*]a\d/,
      );
      const [computeClass] = objects;
      expect(crdSchemaErrors(computeClass, CRD)).toEqual([]);
      const [rule] = computeClass.spec.priorities;
      expect(rule.machineType).toBe(change.plan.nodes.instanceType);
      expect(rule.gpu.gpuSharing).toEqual(gpuSharing);
      // GKE shares the GPUs: no device-plugin or mig-parted config of ours.
      expect(
        change.changeSet.changes
          .map(c => c.path)
          .filter(p => /config/i.test(p)),
      ).toEqual([]);
      expectLandsOnPlannedPool(change);
      expect(findings).toEqual([]);
      expect(await snapshot(tree)).toEqual(untouched);
    },
  );

  it('a second time-sharing request of the same slicing shares the first one’s ComputeClass; each release gives back what it took', async () => {
    const request = (name: string) =>
      shapeRequest(name, {
        gpu: {
          model: 'l4',
          sharing: 'time-slicing',
          replicas: 2,
          vramGiB: 4,
          slicesPerGpu: 4,
        },
        workload: { image: `ghcr.io/acme/${name}:1.0` },
      });
    const changed: Record<string, string>[] = [];
    const plans = [];
    for (const name of ['first', 'second']) {
      const change = await buildRequestChange({
        tree,
        dir: tree.root,
        request: request(name),
        cluster,
        catalog: builtinCatalog,
      });
      expect(change.verification?.landsOn).toEqual([change.plan.pool.name]);
      await writeChangeSet(tree, change.changeSet);
      changed.push(await snapshot(tree));
      plans.push(change.plan);
    }
    expect(plans.map(p => [p.pool.name, p.pool.reused])).toEqual([
      [plans[0].pool.name, false],
      [plans[0].pool.name, true],
    ]);
    expect(
      await validateGitOpsTree(tree.root, { cluster, catalog: builtinCatalog }),
    ).toEqual([]);
    const release = async (name: string) =>
      writeChangeSet(
        tree,
        (
          await buildReleaseChange({
            tree,
            dir: tree.root,
            request: request(name).metadata,
            clusterProfile: () => cluster,
            catalog: builtinCatalog,
          })
        ).changeSet,
      );
    await release('second');
    expect(await snapshot(tree)).toEqual(changed[0]);
    await release('first');
    expect(await snapshot(tree)).toEqual(untouched);
  });

  it('refuses DRA with GKE’s reason, nothing written', async () => {
    await expect(
      buildRequestChange({
        tree,
        dir: tree.root,
        request: shapeRequest('t4-dra', {
          gpu: { model: 't4', sharing: 'dra', replicas: 2, vramGiB: 8 },
          workload: { image: 'ghcr.io/acme/t4-dra:1.0' },
        }),
        cluster,
        catalog: builtinCatalog,
      }),
    ).rejects.toThrow(/Node auto-provisioning isn't supported/);
    expect(await snapshot(tree)).toEqual(untouched);
  });
});
