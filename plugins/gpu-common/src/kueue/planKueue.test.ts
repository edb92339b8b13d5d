import { plan } from '../planner/plan';
import type { RepoState } from '../planner/types';
import {
  cluster,
  fixtureCatalog,
  gpuRequest,
} from '../planner/__testUtils__/fixtures';
import { validateAgainstCrd } from '../manifests/__testUtils__/crdSchemas';
import { planKueue } from './planKueue';
import { stateAfterPlan } from './stateAfterPlan';

/** Kueue v0.19.2's CRDs, vendored (see `manifests/__testUtils__/crds/SOURCES.md`). */
const KUEUE_CRDS: Record<string, string> = {
  ResourceFlavor: 'kueue-v0.19.2_kueue.x-k8s.io_resourceflavors.yaml',
  ClusterQueue: 'kueue-v0.19.2_kueue.x-k8s.io_clusterqueues.yaml',
  LocalQueue: 'kueue-v0.19.2_kueue.x-k8s.io_localqueues.yaml',
};

const awsKueue = cluster({ name: 'prod', kueue: true });
const empty: RepoState = {
  pools: [],
  devicePluginConfigs: {},
  migConfigs: {},
  workloads: [],
};

const requests = {
  timeSlicing: gpuRequest(
    { sharing: 'time-slicing', replicas: 6, vramGiB: 4 },
    { name: 'chat' },
  ),
  exclusive: gpuRequest(
    { sharing: 'exclusive', replicas: 2 },
    { name: 'train' },
  ),
  mig: gpuRequest(
    { model: 'a100-80gb', sharing: 'mig', replicas: 14, vramGiB: 5 },
    { name: 'notebooks' },
  ),
};

/** The state after each request is planned in turn, as merged pull requests leave it. */
function stateAfter(...rs: (typeof requests)[keyof typeof requests][]) {
  return rs.reduce(
    (state, r) =>
      stateAfterPlan(state, plan(r, fixtureCatalog, awsKueue, state)),
    empty,
  );
}

const owners = (id: string) =>
  id.startsWith('ml-team/') ? 'group:default/ml-platform' : undefined;

describe('planKueue', () => {
  const state = stateAfter(
    requests.timeSlicing,
    requests.exclusive,
    requests.mig,
  );

  it('writes a flavor per pool, a queue per team, a local queue per namespace, each valid against Kueue v0.19.2', () => {
    const { objects, issues } = planKueue({
      cluster: awsKueue,
      state,
      ownerOf: owners,
      gpuQuotaOf: () => undefined,
    });
    expect(issues).toEqual([]);
    expect(objects.map(o => `${o.kind}/${o.metadata.name}`)).toEqual([
      'ResourceFlavor/gpu-a100-80gb-mig-1g.10gb',
      'ResourceFlavor/gpu-t4',
      'ResourceFlavor/gpu-t4-ts4',
      'ClusterQueue/ml-platform',
      'LocalQueue/ml-platform',
    ]);
    for (const object of objects) {
      validateAgainstCrd(object, KUEUE_CRDS[object.kind]);
    }
  });

  it('selects each pool by the label Karpenter puts on its nodes, with its taint tolerated', () => {
    const { objects } = planKueue({
      cluster: awsKueue,
      state,
      ownerOf: owners,
      gpuQuotaOf: () => undefined,
    });
    const flavor = objects.find(o => o.metadata.name === 'gpu-t4-ts4')!;
    expect(flavor.spec).toEqual({
      nodeLabels: { 'karpenter.sh/nodepool': 'gpu-t4-ts4' },
      nodeTaints: [
        { key: 'nvidia.com/gpu', value: 'gpu-t4-ts4', effect: 'NoSchedule' },
      ],
      tolerations: [
        {
          key: 'nvidia.com/gpu',
          operator: 'Equal',
          value: 'gpu-t4-ts4',
          effect: 'NoSchedule',
        },
      ],
    });
  });

  it("gives the team's gpuQuota as nominal quota in each pool's units when the pools provision it", () => {
    // Pools raised to hold the quota: T4 pools 2 GPUs, the A100 pool 2 GPUs.
    const roomy: RepoState = {
      ...state,
      pools: state.pools.map(p => ({ ...p, limits: { 'nvidia.com/gpu': 2 } })),
    };
    const { objects, issues, queueOfRequest } = planKueue({
      cluster: awsKueue,
      state: roomy,
      ownerOf: owners,
      gpuQuotaOf: owner =>
        owner === 'group:default/ml-platform' ? 2 : undefined,
    });
    expect(issues).toEqual([]);
    const queue = objects.find(o => o.kind === 'ClusterQueue')!;
    expect(queue.spec.resourceGroups).toEqual([
      {
        coveredResources: ['nvidia.com/gpu'],
        flavors: [
          {
            name: 'gpu-t4',
            resources: [{ name: 'nvidia.com/gpu', nominalQuota: 2 }],
          },
        ],
      },
      {
        coveredResources: ['nvidia.com/gpu.shared'],
        flavors: [
          // 2 GPUs of 4 time slices each.
          {
            name: 'gpu-t4-ts4',
            resources: [{ name: 'nvidia.com/gpu.shared', nominalQuota: 8 }],
          },
        ],
      },
      {
        coveredResources: ['nvidia.com/mig-1g.10gb'],
        flavors: [
          // 2 GPUs of 7 1g.10gb instances each.
          {
            name: 'gpu-a100-80gb-mig-1g.10gb',
            resources: [{ name: 'nvidia.com/mig-1g.10gb', nominalQuota: 14 }],
          },
        ],
      },
    ]);
    expect(queue.spec.namespaceSelector).toEqual({
      matchExpressions: [
        {
          key: 'kubernetes.io/metadata.name',
          operator: 'In',
          values: ['ml-team'],
        },
      ],
    });
    expect(queueOfRequest.get('ml-team/chat')).toBe('ml-platform');
  });

  it('★ refuses nominal quotas above what the pool limits provision, naming the pool, the teams and the fix', () => {
    const { issues } = planKueue({
      cluster: awsKueue,
      state,
      ownerOf: owners,
      // 8 GPUs of quota; the exclusive T4 pool's limit holds its 2 replicas' 2 GPUs.
      gpuQuotaOf: () => 8,
    });
    const onT4 = issues.find(i => i.message.includes('pool gpu-t4 '));
    expect(onT4).toMatchObject({ rule: 'kueue-quota-above-pool' });
    expect(onT4!.message).toContain(
      "Kueue quotas on pool gpu-t4 add up to 8 nvidia.com/gpu (ml-platform 8 (8 GPUs)) but the pool's limits provision only 2 (2 GPUs)",
    );
    expect(onT4!.message).toContain(
      'gpu.backstage.io/limit-floor annotation to 8 GPUs',
    );
  });

  it('holds a quota-less team to what its requests hold, which the ledger-derived limits provision', () => {
    const { objects, issues } = planKueue({
      cluster: awsKueue,
      state,
      ownerOf: owners,
      gpuQuotaOf: () => undefined,
    });
    expect(issues).toEqual([]);
    const queue = objects.find(o => o.kind === 'ClusterQueue')!;
    const quotas = (queue.spec.resourceGroups as any[]).flatMap(g =>
      g.flavors.map((f: any) => [f.name, f.resources[0].nominalQuota]),
    );
    expect(Object.fromEntries(quotas)).toEqual({
      'gpu-t4': 2,
      'gpu-t4-ts4': 6,
      'gpu-a100-80gb-mig-1g.10gb': 14,
    });
  });
});
