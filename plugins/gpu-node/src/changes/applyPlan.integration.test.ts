/**
 * Real requests of every sharing mode through the real planner and manifest
 * builders (gpu-common), merged into a realistic GitOps repository on disk,
 * then re-planned from what the repository now holds.
 */
import {
  builtinCatalog,
  GpuRequest,
  SharingMode,
} from '@gpu-gitops/plugin-gpu-common';
import { parse, parseAllDocuments } from 'yaml';
import { readRepoState } from '../repo/readRepoState';
import { FsRepoTree } from '../repo/tree';
import { validateGitOpsTree } from '../validate/validateGitOpsTree';
import { buildRequestChange } from './buildRequestChange';
import { writeChangeSet } from './stagedTree';
import { mlRequest } from './__fixtures__/requests';
import {
  buildableRepoFiles as repoFiles,
  devCluster as cluster,
  removeTempRepo,
  writeTempRepo,
} from './__fixtures__/gitopsRepo';

// A hang guard, not a speed goal: each test runs the real kustomize (and git) several
// times, which on a loaded two-core CI machine takes far longer than the default 30 s.
jest.setTimeout(300_000);

const request = (
  name: string,
  sharing: SharingMode,
  model: string,
  gpu: Record<string, unknown>,
  existing?: { kind: 'Deployment'; name: string },
): GpuRequest =>
  mlRequest(
    name,
    { model, sharing, ...gpu },
    existing ? { workload: { existing } } : {},
  );

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

async function planAndApply(tree: FsRepoTree, gpuRequest: GpuRequest) {
  const change = await buildRequestChange({
    tree,
    dir: tree.root,
    request: gpuRequest,
    cluster,
    catalog: builtinCatalog,
  });
  return { thePlan: change.plan, changeSet: change.changeSet };
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

  it.each(requests.map(r => [`${r.metadata.name} (${r.spec.gpu.sharing})`, r]))(
    '%s: applies, then re-planning from the repository changes nothing',
    async (_label, gpuRequest) => {
      const { thePlan, changeSet } = await planAndApply(
        tree,
        gpuRequest as GpuRequest,
      );
      expect(changeSet.empty).toBe(false);
      const paths = changeSet.changes.map(c => c.path);
      expect(paths).toContain(
        `requests/ml/${thePlan.request.metadata.name}.yaml`,
      );
      // A new pool gets its own file; a reused one is edited where it is.
      const poolPath = `clusters/dev/gpu/nodepools/${thePlan.pool.name}.yaml`;
      expect(thePlan.pool.reused || paths.includes(poolPath)).toBe(true);
      // Unrelated content is never touched.
      expect(
        paths.filter(
          p => p.startsWith('apps/web/') || p.includes('karpenter/'),
        ),
      ).toEqual([]);
      await writeChangeSet(tree, changeSet);

      // Every named config the plan uses now exists in the repository.
      const key = thePlan.sharing.deviceConfigName;
      const configText = key
        ? await tree.readFile(`clusters/dev/gpu/device-plugin/${key}.yaml`)
        : '';
      expect(configText).toEqual(expect.any(String));

      const again = await planAndApply(tree, gpuRequest as GpuRequest);
      expect(again.thePlan.pool.name).toBe(thePlan.pool.name);
      expect(again.changeSet.changes.map(c => c.path)).toEqual([]);
      expect(again.changeSet.empty).toBe(true);
    },
  );

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
