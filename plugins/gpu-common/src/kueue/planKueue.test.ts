import { plan } from '../planner/plan';
import type { RepoState } from '../planner/types';
import {
  cluster,
  fixtureCatalog,
  gpuRequest,
} from '../planner/__testUtils__/fixtures';
import { validateAgainstCrd } from '../manifests/__testUtils__/crdSchemas';
import { flavorQuotaIssues } from './flavorQuotaRule';
import { planKueue } from './planKueue';
import { stateAfterPlan } from './stateAfterPlan';
import type { KueueDeviceClassMapping } from './kueueDeviceClasses';

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

describe('planKueue with the cohort limits the policy states', () => {
  // Two teams in one time-sliced T4 pool: ml-platform's chat, search's ranker.
  const shared = stateAfter(
    requests.timeSlicing,
    gpuRequest(
      { sharing: 'time-slicing', replicas: 2, vramGiB: 4 },
      { name: 'ranker' },
    ),
  );
  const roomy: RepoState = {
    ...shared,
    pools: shared.pools.map(p => ({ ...p, limits: { 'nvidia.com/gpu': 4 } })),
  };
  const twoTeams = (id: string) =>
    id.endsWith('/ranker')
      ? 'group:default/search'
      : 'group:default/ml-platform';
  const quotaGpus: Record<string, number> = {
    'group:default/ml-platform': 2,
    'group:default/search': 1,
  };

  it("gives each team's flavor its borrowing and lending limits in the pool's units, valid against Kueue v0.19.2", () => {
    const { objects, issues } = planKueue({
      cluster: awsKueue,
      state: roomy,
      ownerOf: twoTeams,
      gpuQuotaOf: owner => quotaGpus[owner],
      cohortLimitsOf: owner =>
        owner === 'group:default/ml-platform'
          ? { borrowingLimit: 0.5, lendingLimit: 0.25 }
          : { lendingLimit: 5 },
    });
    expect(issues).toEqual([]);
    const resources = (team: string) => {
      const queue = objects.find(
        o => o.kind === 'ClusterQueue' && o.metadata.name === team,
      )!;
      expect(queue.spec.cohortName).toBe('gpu-prod');
      validateAgainstCrd(queue, KUEUE_CRDS.ClusterQueue);
      return (queue.spec.resourceGroups as any[])[0].flavors[0].resources;
    };
    // 4 slices per GPU: 2 GPUs of quota, borrow half a GPU, lend a quarter.
    expect(resources('ml-platform')).toEqual([
      {
        name: 'nvidia.com/gpu.shared',
        nominalQuota: 8,
        borrowingLimit: 2,
        lendingLimit: 1,
      },
    ]);
    // Kueue refuses a lending limit above the nominal quota: held to it.
    expect(resources('search')).toEqual([
      { name: 'nvidia.com/gpu.shared', nominalQuota: 4, lendingLimit: 4 },
    ]);
  });

  it('writes no limit the policy does not state (Kueue: no limit)', () => {
    const { objects } = planKueue({
      cluster: awsKueue,
      state: roomy,
      ownerOf: twoTeams,
      gpuQuotaOf: owner => quotaGpus[owner],
    });
    const queue = objects.find(o => o.metadata.name === 'search')!;
    expect(
      (queue.spec.resourceGroups as any[])[0].flavors[0].resources,
    ).toEqual([{ name: 'nvidia.com/gpu.shared', nominalQuota: 4 }]);
  });
});

describe('flavorQuotaIssues with borrowing', () => {
  const pool = {
    pool: 'gpu-t4',
    resourceName: 'nvidia.com/gpu',
    capacityUnits: 7,
    unitsPerGpu: 1,
  };

  it('counts the quota a Cohort object holds on the flavor into what the cohort admits', () => {
    const quotas = [
      { team: 'a', units: 4 },
      { team: 'b', units: 2 },
    ];
    expect(flavorQuotaIssues(pool, quotas, 'gpu.backstage.io')).toEqual([]);
    const [issue] = flavorQuotaIssues(
      { ...pool, cohortUnits: 2 },
      quotas,
      'gpu.backstage.io',
    );
    expect(issue.message).toContain(
      "Kueue quotas on pool gpu-t4 add up to 8 nvidia.com/gpu (a 4 (4 GPUs), b 2 (2 GPUs), the cohort itself 2) but the pool's limits provision only 7",
    );
  });

  it('refuses a team that can reach more than the pool by borrowing what the others lend, unless its borrowing limit holds it', () => {
    // A hand-written lending limit above a's nominal quota (Kueue's webhook would refuse it too).
    const quotas = [
      { team: 'a', units: 4, lendingLimit: 6 },
      { team: 'b', units: 2 },
    ];
    const issues = flavorQuotaIssues(pool, quotas, 'gpu.backstage.io');
    expect(issues.map(i => i.message)).toEqual([
      expect.stringContaining(
        "Kueue lets b hold up to 8 nvidia.com/gpu on pool gpu-t4 (nominal 2 + 6 borrowed within the cohort) but the pool's limits provision only 7",
      ),
    ]);
    expect(issues[0].message).toContain("Lower b's kueue.borrowingLimit");
    expect(
      flavorQuotaIssues(
        pool,
        [quotas[0], { ...quotas[1], borrowingLimit: 1 }],
        'gpu.backstage.io',
      ),
    ).toEqual([]);
  });
});

describe('planKueue for DRA pools', () => {
  const dra = {
    kueue: true,
    karpenterVersion: '1.15.1',
    kubernetesVersion: '1.36.2',
    migStrategy: 'single' as const,
  };
  // The driver shares every GPU 4 ways; on another cluster it serves static MIG instances.
  const shared = cluster({
    ...dra,
    name: 'prod',
    dra: { karpenterNvidiaGate: true, consumableShares: 4 },
  });
  const staticMig = cluster({
    ...dra,
    name: 'prod',
    dra: { karpenterNvidiaGate: true, staticMig: true },
  });
  const after = (profile: typeof shared, r: ReturnType<typeof gpuRequest>) =>
    stateAfterPlan(empty, plan(r, fixtureCatalog, profile, empty));
  const sharedState = after(
    shared,
    gpuRequest({ sharing: 'dra', replicas: 6, vramGiB: 4 }, { name: 'chat' }),
  );
  const migState = after(
    staticMig,
    gpuRequest(
      { model: 'a100-80gb', sharing: 'dra', replicas: 14, vramGiB: 9 },
      { name: 'notebooks' },
    ),
  );
  const kueueOf = (profile: typeof shared, state: RepoState, quota: number) =>
    planKueue({
      cluster: profile,
      state,
      ownerOf: owners,
      gpuQuotaOf: () => quota,
    });
  const resourcesOf = (kueue: ReturnType<typeof planKueue>) => {
    const queue = kueue.objects.find(o => o.kind === 'ClusterQueue')!;
    validateAgainstCrd(queue, KUEUE_CRDS.ClusterQueue);
    return Object.fromEntries(
      (queue.spec.resourceGroups as any[]).flatMap(g =>
        g.flavors.map((f: any) => [f.name, f.resources]),
      ),
    );
  };

  it("quotas a DRA pool's claims in the resource Kueue's deviceClassMappings count them in, one per replica", () => {
    const sharedKueue = kueueOf(shared, sharedState, 2);
    const migKueue = kueueOf(staticMig, migState, 2);
    expect([...sharedKueue.issues, ...migKueue.issues]).toEqual([]);
    // 2 GPUs, each shared 4 ways by the driver's consumable shares.
    expect(resourcesOf(sharedKueue)).toEqual({
      'gpu-t4-dra4': [{ name: 'nvidia.com/gpu', nominalQuota: 8 }],
    });
    // 2 GPUs of 7 1g.10gb instances each, claimed through mig.nvidia.com.
    expect(resourcesOf(migKueue)).toEqual({
      'gpu-a100-80gb-dra-mig-1g.10gb': [
        { name: 'mig.nvidia.com', nominalQuota: 14 },
      ],
    });
  });

  it("says exactly what Kueue's Configuration must map, and that its controller must restart", () => {
    const [warning] = kueueOf(staticMig, migState, 2).warnings;
    expect(warning).toContain(
      'resources.deviceClassMappings: [{name: mig.nvidia.com, deviceClassNames: [mig.nvidia.com]}] in the kueue-manager-config ConfigMap',
    );
    expect(warning).toContain('restart deployment/kueue-controller-manager');
    expect(kueueOf(shared, sharedState, 2).warnings).toEqual([
      expect.stringContaining(
        '[{name: nvidia.com/gpu, deviceClassNames: [gpu.nvidia.com]}]',
      ),
    ]);
    expect(
      kueueOf(awsKueue, stateAfter(requests.exclusive), 1).warnings,
    ).toEqual([]);
  });

  it("warns only of the mappings the repository's Kueue Configuration does not hold", () => {
    const configured = (deviceClassMappings: KueueDeviceClassMapping[]) =>
      planKueue({
        cluster: staticMig,
        state: migState,
        ownerOf: owners,
        gpuQuotaOf: () => 2,
        deviceClassMappings,
      }).warnings;
    expect(
      configured([
        { name: 'mig.nvidia.com', deviceClassNames: ['mig.nvidia.com'] },
      ]),
    ).toEqual([]);
    // The class mapped to another resource than the queues count it in.
    expect(
      configured([
        { name: 'nvidia.com/gpu', deviceClassNames: ['mig.nvidia.com'] },
      ]),
    ).toEqual([
      expect.stringContaining(
        '[{name: mig.nvidia.com, deviceClassNames: [mig.nvidia.com]}]',
      ),
    ]);
  });

  it('★ holds a DRA pool to what its limits provision, in claims', () => {
    const { issues } = kueueOf(shared, sharedState, 8);
    expect(issues.map(i => i.message)).toEqual([
      expect.stringContaining(
        'Kueue quotas on pool gpu-t4-dra4 add up to 32 nvidia.com/gpu',
      ),
    ]);
  });
});

describe('planKueue on GKE', () => {
  const gke = cluster({ name: 'gke-dev', provider: 'gke', kueue: true });
  const pool = (
    name: string,
    gpuModel: string,
    sharing: Partial<RepoState['pools'][number]>,
  ): RepoState['pools'][number] => ({
    name,
    path: `clusters/gke-dev/gpu/nodepools/${name}.yaml`,
    gpuModel,
    sharingMode: 'exclusive',
    resourceName: 'nvidia.com/gpu',
    instanceTypes: [],
    capacityTypes: ['on-demand'],
    limits: { 'nvidia.com/gpu': 2 },
    ledger: [{ request: `ml-team/${name}`, replicas: 1, unitsPerReplica: 1 }],
    ...sharing,
  });
  const state: RepoState = {
    ...empty,
    pools: [
      pool('gpu-l4-ts4', 'l4', {
        sharingMode: 'time-slicing',
        slicesPerGpu: 4,
      }),
      pool('gpu-a100-40gb-mig-1g.5gb', 'a100-40gb', {
        sharingMode: 'mig',
        migProfile: '1g.5gb',
      }),
      pool('gpu-t4', 't4', {}),
    ],
  };

  it("each pool's flavor selects the labels GKE sets on its class's nodes: the class, the accelerator, the sharing", () => {
    const { objects } = planKueue({
      cluster: gke,
      state,
      ownerOf: owners,
      gpuQuotaOf: () => undefined,
    });
    const flavors = objects.filter(o => o.kind === 'ResourceFlavor');
    for (const flavor of flavors) {
      validateAgainstCrd(flavor, KUEUE_CRDS.ResourceFlavor);
    }
    expect(
      Object.fromEntries(
        flavors.map(f => [f.metadata.name, f.spec.nodeLabels]),
      ),
    ).toEqual({
      'gpu-a100-40gb-mig-1g.5gb': {
        'cloud.google.com/compute-class': 'gpu-a100-40gb-mig-1g.5gb',
        'cloud.google.com/gke-accelerator': 'nvidia-tesla-a100',
        'cloud.google.com/gke-gpu-partition-size': '1g.5gb',
      },
      'gpu-l4-ts4': {
        'cloud.google.com/compute-class': 'gpu-l4-ts4',
        'cloud.google.com/gke-accelerator': 'nvidia-l4',
        'cloud.google.com/gke-gpu-sharing-strategy': 'time-sharing',
        'cloud.google.com/gke-max-shared-clients-per-gpu': '4',
      },
      'gpu-t4': {
        'cloud.google.com/compute-class': 'gpu-t4',
        'cloud.google.com/gke-accelerator': 'nvidia-tesla-t4',
      },
    });
  });
});
