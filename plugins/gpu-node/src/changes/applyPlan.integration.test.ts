/**
 * Real requests of every sharing mode through the real planner and manifest
 * builders (gpu-common), merged into a realistic GitOps repository on disk,
 * then re-planned from what the repository now holds.
 */
import {
  builtinCatalog,
  buildManifests,
  ClusterProfile,
  defaultClusterProfile,
  GpuRequest,
  parseGpuRequest,
  plan,
  SharingMode,
} from '@gpu-gitops/plugin-gpu-common';
import { parse, parseAllDocuments } from 'yaml';
import { readRepoState } from '../repo/readRepoState';
import { FsRepoTree } from '../repo/tree';
import { validateGitOpsTree } from '../validate/validateGitOpsTree';
import { applyPlan } from './applyPlan';
import { writeChangeSet } from './stagedTree';
import {
  existingRepoFiles,
  removeTempRepo,
  writeTempRepo,
} from './__fixtures__/gitopsRepo';

const cluster: ClusterProfile = {
  ...defaultClusterProfile,
  name: 'dev',
  nodeClass: { ...defaultClusterProfile.nodeClass },
  devicePluginConfigMap: {
    name: 'device-plugin-config',
    namespace: 'gpu-operator',
  },
  migPartedConfigMap: { name: 'mig-parted-config', namespace: 'gpu-operator' },
};

function request(
  name: string,
  sharing: SharingMode,
  model: string,
  gpu: Record<string, unknown>,
  existing?: { kind: 'Deployment'; name: string },
): GpuRequest {
  return parseGpuRequest({
    apiVersion: 'gpu.backstage.io/v1alpha1',
    kind: 'GpuRequest',
    metadata: { name, namespace: 'ml' },
    spec: {
      owner: 'group:default/ml-platform',
      gpu: { model, sharing, ...gpu },
      workload: existing
        ? { existing }
        : { image: `ghcr.io/example/${name}:1.0.0` },
      capacityTypes: ['on-demand'],
    },
  });
}

const requests: GpuRequest[] = [
  request('t4-exclusive', 'exclusive', 't4', { replicas: 2, vramGiB: 12 }),
  request('t4-ts', 'time-slicing', 't4', {
    replicas: 6,
    vramGiB: 3,
    slicesPerGpu: 4,
  }),
  request('l4-mps', 'mps', 'l4', { replicas: 5, vramGiB: 4 }),
  request('a100-mig', 'mig', 'a100-40gb', { replicas: 3, vramGiB: 18 }),
  request('l4-dra', 'dra', 'l4', { replicas: 2, vramGiB: 16 }),
  request(
    'recommender-api',
    'exclusive',
    't4',
    { replicas: 3, vramGiB: 12 },
    { kind: 'Deployment', name: 'recommender-api' },
  ),
];

const { ['apps/web/storefront/broken.yaml']: _broken, ...repoFiles } =
  existingRepoFiles;

async function planAndApply(tree: FsRepoTree, gpuRequest: GpuRequest) {
  const state = await readRepoState(tree, undefined, cluster.name);
  const thePlan = plan(gpuRequest, builtinCatalog, cluster, state);
  const manifests = buildManifests(thePlan, cluster, {
    catalog: builtinCatalog,
  });
  return {
    thePlan,
    changeSet: await applyPlan(tree, { plan: thePlan, manifests, cluster }),
  };
}

describe('plan() -> buildManifests() -> applyPlan() on a real GitOps tree', () => {
  let dir: string;
  let tree: FsRepoTree;
  beforeAll(async () => {
    dir = await writeTempRepo(repoFiles);
    tree = new FsRepoTree(dir);
  });
  afterAll(async () => {
    await removeTempRepo(dir);
  });

  for (const gpuRequest of requests) {
    const label = `${gpuRequest.metadata.name} (${gpuRequest.spec.gpu.sharing})`;
    it(`${label}: applies, then re-planning from the repository changes nothing`, async () => {
      const { thePlan, changeSet } = await planAndApply(tree, gpuRequest);
      expect(changeSet.empty).toBe(false);
      const paths = changeSet.changes.map(c => c.path);
      expect(paths).toContain(`requests/ml/${gpuRequest.metadata.name}.yaml`);
      const poolPath = `clusters/dev/gpu/nodepools/${thePlan.pool.name}.yaml`;
      if (!thePlan.pool.reused) expect(paths).toContain(poolPath);
      if (thePlan.sharing.deviceConfigName) {
        const key = thePlan.sharing.deviceConfigName;
        expect(
          await tree
            .readFile(`clusters/dev/gpu/device-plugin/${key}.yaml`)
            .then(
              t =>
                t ??
                paths.includes(`clusters/dev/gpu/device-plugin/${key}.yaml`),
            ),
        ).toBeTruthy();
      }
      // Unrelated content is never touched.
      expect(
        paths.filter(
          p => p.startsWith('apps/web/') || p.includes('karpenter/'),
        ),
      ).toEqual([]);
      await writeChangeSet(tree, changeSet);

      const again = await planAndApply(tree, gpuRequest);
      expect(again.thePlan.pool.name).toBe(thePlan.pool.name);
      expect(again.changeSet.changes.map(c => c.path)).toEqual([]);
      expect(again.changeSet.empty).toBe(true);
    });
  }

  it('leaves a tree that validates clean and reads back every GPU workload', async () => {
    expect(await validateGitOpsTree(dir)).toEqual([]);
    const state = await readRepoState(tree, undefined, cluster.name);
    expect(state.skipped).toEqual([]);
    const ids = state.workloads.map(w => w.id);
    for (const r of requests) expect(ids).toContain(`ml/${r.metadata.name}`);
    // DRA workloads count devices of the claim template's DeviceClass.
    expect(state.workloads.find(w => w.id === 'ml/l4-dra')).toMatchObject({
      resourceName: 'gpu.nvidia.com',
      replicas: 2,
      perReplica: 1,
      pool: 'gpu-l4-dra',
    });
    // t4-ts reused the hand-written pool, whose taint value differs from the
    // planned one; the workload was made to tolerate the pool's real taint.
    const pool = parseAllDocuments(
      (await tree.readFile('clusters/dev/gpu/nodepools/gpu-t4-ts4.yaml'))!,
    )[0].toJS();
    expect(pool.spec.template.spec.taints).toEqual([
      { key: 'nvidia.com/gpu', value: 'true', effect: 'NoSchedule' },
    ]);
    const mig = parse(
      (await tree.readFile('clusters/dev/gpu/mig/config.yaml'))!,
    );
    const keys = Object.keys(mig['mig-configs']);
    expect(keys).toEqual([...keys].sort());
  });
});
