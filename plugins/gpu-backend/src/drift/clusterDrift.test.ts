/**
 * Drift through the real client (@kubernetes/client-node) against the fake
 * API server: the fixed calls per refresh for each provider (only the pool
 * objects it makes), the token, the answer when the API is unreachable,
 * stalled, refuses the token, or serves no API for the pool's kind.
 */
import {
  resolveClusterProfile,
  type ClusterProfile,
  type GpuAllocation,
} from '@gpu-gitops/plugin-gpu-common';
import {
  configMap,
  failedScheduling,
  machineDeployment,
  node,
  nodeFeatureRule,
  nodeOverlay,
  nodePool,
  pendingPod,
} from '../__testUtils__/clusterFixtures';
import {
  startKubernetesApiServer,
  type ClusterContents,
  type KubernetesApiServer,
} from '../__testUtils__/kubernetesApiServer';
import {
  capiProfile,
  devCluster,
  repoState,
  staticProfile,
} from './__testUtils__/driftRepo';
import { ClusterDrift } from './clusterDrift';

const TOKEN = 'sa-token-7f3a9c';
const TS_POOL = 'gpu-t4-ts4';
const MIG_POOL = 'gpu-a100-mig-1g.10gb';
const snapshot = { clusters: new Map([['dev', devCluster]]) };

function contents(now: Date): ClusterContents {
  return {
    nodePools: [nodePool(TS_POOL, { now }), nodePool(MIG_POOL, { now })],
    // Feature gate off: Karpenter never validated the overlays.
    nodeOverlays: [
      nodeOverlay(`${TS_POOL}-1gpu`, TS_POOL, { now }),
      nodeOverlay(`${MIG_POOL}-8gpu`, MIG_POOL, { now }),
    ],
    nodes: [
      node('ip-10-0-1-7', {
        pool: TS_POOL,
        labels: { 'nvidia.com/device-plugin.config': 'ts-4' },
        allocatable: { 'nvidia.com/gpu.shared': '4' },
        ageMinutes: 60,
        now,
      }),
      // Not a Karpenter node: the label selector leaves it out.
      {
        ...node('cpu-1', { pool: 'x', ageMinutes: 60, now }),
        metadata: { name: 'cpu-1', labels: { 'kubernetes.io/os': 'linux' } },
      },
    ],
    pods: [
      pendingPod('ml', 'chat-7d9f8b6c5d-x2x7q', { ageMinutes: 30, now }),
      {
        ...pendingPod('ml', 'chat-7d9f8b6c5d-runn1', { ageMinutes: 30, now }),
        status: { phase: 'Running' },
      },
    ],
    events: [
      failedScheduling(
        'ml',
        'chat-7d9f8b6c5d-x2x7q',
        '0/3 nodes are available: 3 Insufficient nvidia.com/gpu.shared.',
        { ageMinutes: 1, now },
      ),
    ],
    configMaps: [
      configMap('gpu-operator', 'nvidia-device-plugin-configs', {
        'ts-4': 'version: v1\n',
      }),
    ],
  };
}

const chat = {
  id: 'ml/chat',
  cluster: 'dev',
  pool: TS_POOL,
} as GpuAllocation;

describe('ClusterDrift', () => {
  let api: KubernetesApiServer;
  const now = new Date();

  beforeAll(async () => {
    api = await startKubernetesApiServer({
      token: TOKEN,
      contents: contents(now),
    });
  });
  afterAll(async () => {
    await api?.stop();
  });

  const drift = (server: string, token = TOKEN, timeoutMs = 2_000) =>
    new ClusterDrift(
      [{ cluster: 'dev', server, token, timeoutMs, caData: api.caData }],
      { profiles: [devCluster.profile], graceMs: 10 * 60_000 },
    );

  it("reads the cluster in six calls and reports the allocation's pool and pods", async () => {
    const before = api.requests.length;
    const reader = drift(api.url);
    expect(reader.driftOf(chat, snapshot)).toBeUndefined();
    const statuses = await reader.refresh();
    expect(statuses).toEqual([
      {
        cluster: 'dev',
        source: 'kubernetes',
        available: true,
        at: expect.any(String),
      },
    ]);
    expect(api.requests.slice(before).sort()).toEqual([
      '/api/v1/events?fieldSelector=involvedObject.kind%3DPod%2Creason%3DFailedScheduling',
      '/api/v1/namespaces/gpu-operator/configmaps/nvidia-device-plugin-configs',
      '/api/v1/nodes?labelSelector=karpenter.sh%2Fnodepool',
      '/api/v1/pods?fieldSelector=status.phase%3DPending',
      '/apis/karpenter.sh/v1/nodepools',
      '/apis/karpenter.sh/v1alpha1/nodeoverlays',
    ]);
    expect(reader.driftOf(chat, snapshot)).toEqual([
      {
        kind: 'nodeoverlay-gate-off',
        object: `NodeOverlay/${TS_POOL}-1gpu`,
        message: expect.stringContaining('feature gate is off'),
      },
      {
        kind: 'pods-pending',
        object: 'Pod/ml/chat-7d9f8b6c5d-x2x7q',
        message: '1 pod Pending for up to 30 min',
        events: [
          'FailedScheduling: 0/3 nodes are available: 3 Insufficient nvidia.com/gpu.shared.',
        ],
      },
    ]);
    // Another cluster's allocation: not read, so no drift claimed.
    expect(
      reader.driftOf({ ...chat, cluster: 'prod' }, snapshot),
    ).toBeUndefined();
  });

  it('a read made before Git is indexed counts once it is, compared with the snapshot asked about', async () => {
    const reader = drift(api.url);
    await reader.refresh();
    expect(reader.driftOf(chat, { clusters: new Map() })).toBeUndefined();
    const found = reader.driftOf(chat, snapshot);
    expect(found?.map(f => f.kind)).toEqual([
      'nodeoverlay-gate-off',
      'pods-pending',
    ]);
    // Git without the pool (a release merged): nothing on it to compare.
    const released = {
      clusters: new Map([
        [
          'dev',
          {
            ...devCluster,
            repoState: {
              ...devCluster.repoState,
              pools: devCluster.repoState.pools.filter(p => p.name !== TS_POOL),
            },
          },
        ],
      ]),
    };
    expect(reader.driftOf(chat, released)?.map(f => f.kind)).toEqual([
      'pods-pending',
    ]);
    // Back to the first snapshot: its findings again.
    expect(reader.driftOf(chat, snapshot)).toEqual(found);
  });

  it('a cluster that is unreachable, stalled, or refuses the token gives the reason, never the token', async () => {
    const unreachable = drift('https://127.0.0.1:9');
    const [down] = await unreachable.refresh();
    expect(down).toEqual({
      cluster: 'dev',
      source: 'kubernetes',
      available: false,
      reason: expect.stringMatching(
        /^Kubernetes API at 127\.0\.0\.1:9 cannot be reached \(ECONNREFUSED\)$/,
      ),
    });
    expect(unreachable.driftOf(chat, snapshot)).toBeUndefined();

    const refused = drift(api.url, 'not-the-token');
    const [denied] = await refused.refresh();
    expect(denied.available).toBe(false);
    expect(denied.reason).toMatch(/refused to .* \(HTTP 401\)/);
    expect(JSON.stringify(denied)).not.toContain('not-the-token');

    api.stallMs = 5_000;
    try {
      const started = Date.now();
      const [stalled] = await drift(api.url, TOKEN, 500).refresh();
      expect(stalled.reason).toBe(
        `Kubernetes API at ${new URL(api.url).host} did not answer within 0.5 s`,
      );
      expect(Date.now() - started).toBeLessThan(4_000);
    } finally {
      api.stallMs = 0;
    }
  });

  it('keeps the reason of a cluster it cannot authenticate to, without asking it', async () => {
    const before = api.requests.length;
    const reader = new ClusterDrift(
      [
        {
          cluster: 'dev',
          server: api.url,
          timeoutMs: 1_000,
          unusable: 'the Kubernetes cluster "dev" uses authProvider aws',
        },
      ],
      { profiles: [devCluster.profile], graceMs: 60_000 },
    );
    expect(await reader.refresh()).toEqual([
      {
        cluster: 'dev',
        source: 'kubernetes',
        available: false,
        reason: 'the Kubernetes cluster "dev" uses authProvider aws',
      },
    ]);
    expect(api.requests.length).toBe(before);
  });
});

describe('ClusterDrift on Cluster API and static clusters', () => {
  const now = new Date();
  const deviceConfigs = configMap(
    'gpu-operator',
    'nvidia-device-plugin-configs',
    {
      'ts-4': 'version: v1\n',
    },
  );
  /** What every provider's cluster also holds: a T4 node of the pool by the product's label, one by Karpenter's, a CPU node. */
  const common = (): Omit<ClusterContents, 'nodePools'> => ({
    nodes: [
      node('gpu-t4-01', {
        pool: TS_POOL,
        poolLabel: 'gpu.backstage.io/pool',
        labels: { 'nvidia.com/device-plugin.config': 'ts-4' },
        allocatable: { 'nvidia.com/gpu.shared': '4' },
        ageMinutes: 60,
        now,
      }),
      // Karpenter's label only: not a node of these clusters' pools.
      node('ip-10-0-1-7', {
        pool: TS_POOL,
        labels: { 'nvidia.com/device-plugin.config': 'ts-9' },
        ageMinutes: 60,
        now,
      }),
      {
        ...node('cpu-1', { pool: 'x', ageMinutes: 60, now }),
        metadata: { name: 'cpu-1', labels: { 'kubernetes.io/os': 'linux' } },
      },
    ],
    pods: [],
    events: [],
    configMaps: [deviceConfigs],
  });
  const COMMON_PATHS = [
    '/api/v1/events?fieldSelector=involvedObject.kind%3DPod%2Creason%3DFailedScheduling',
    '/api/v1/namespaces/gpu-operator/configmaps/nvidia-device-plugin-configs',
    '/api/v1/nodes?labelSelector=gpu.backstage.io%2Fpool',
    '/api/v1/pods?fieldSelector=status.phase%3DPending',
  ];
  let api: KubernetesApiServer;

  beforeAll(async () => {
    api = await startKubernetesApiServer({
      token: TOKEN,
      contents: { nodePools: [], ...common() },
    });
  });
  afterAll(async () => {
    await api?.stop();
  });

  const readWith = async (profile: ClusterProfile, token = TOKEN) => {
    const reader = new ClusterDrift(
      [
        {
          cluster: 'dev',
          server: api.url,
          token,
          timeoutMs: 2_000,
          caData: api.caData,
        },
      ],
      { profiles: [profile], graceMs: 10 * 60_000 },
    );
    const before = api.requests.length;
    const [status] = await reader.refresh();
    const onProvider = {
      clusters: new Map([['dev', { ...devCluster, profile }]]),
    };
    return {
      status,
      paths: api.requests.slice(before).sort(),
      poolDrift: (pool: string) => reader.poolDriftOf('dev', pool, onProvider),
      notInGit: () => reader.notInGitOf('dev', onProvider),
    };
  };

  it("a Cluster API cluster: its namespace's MachineDeployments (validated against Cluster API's CRD), never NodePools", async () => {
    api.setContents({
      // A Karpenter NodePool of the same name: never asked for.
      nodePools: [nodePool(TS_POOL, { now })],
      machineDeployments: [
        machineDeployment(TS_POOL, { namespace: 'capi-dev', replicas: 1, now }),
        machineDeployment(MIG_POOL, {
          namespace: 'capi-dev',
          replicas: 2,
          current: 0,
          ready: 0,
          shortForMinutes: 30,
          now,
        }),
        machineDeployment('gpu-l4-ts2', {
          namespace: 'capi-dev',
          replicas: 1,
          managed: true,
          now,
        }),
        // Another cluster's namespace: not listed.
        machineDeployment('gpu-h100', {
          namespace: 'capi-prod',
          replicas: 1,
          managed: true,
          now,
        }),
      ],
      ...common(),
    });
    const read = await readWith(capiProfile);
    expect(read.status.available).toBe(true);
    expect(read.paths).toEqual(
      [
        ...COMMON_PATHS,
        '/apis/cluster.x-k8s.io/v1beta2/namespaces/capi-dev/machinedeployments',
      ].sort(),
    );
    expect(read.poolDrift(TS_POOL)).toEqual([]);
    expect(read.poolDrift(MIG_POOL)).toEqual([
      {
        kind: 'machinedeployment-not-ready',
        object: `MachineDeployment/capi-dev/${MIG_POOL}`,
        message: expect.stringMatching(
          /^MachineDeployment capi-dev\/gpu-a100-mig-1g\.10gb has had 0 of 2 machines ready for 30 min \(Available False: .*ScalingUp True: Scaling up from 0 to 2 replicas\)/,
        ),
      },
    ]);
    expect(read.notInGit()?.map(f => f.object)).toEqual([
      'MachineDeployment/capi-dev/gpu-l4-ts2',
    ]);
  });

  it("a static cluster with an inventory: its NodeFeatureRules (validated against NFD's CRD); without one, no pool object at all", async () => {
    api.setContents({
      nodePools: [],
      nodeFeatureRules: [
        nodeFeatureRule(TS_POOL, {
          nodeNames: ['gpu-t4-01', 'gpu-t4-02'],
          writtenMinutesAgo: 45,
          now,
        }),
      ],
      ...common(),
    });
    const named = {
      ...devCluster,
      profile: staticProfile,
      repoState: {
        ...repoState,
        pools: repoState.pools.map(p =>
          p.name === TS_POOL
            ? { ...p, nodeNames: ['gpu-t4-01', 'gpu-t4-02'] }
            : p,
        ),
      },
    };
    const reader = new ClusterDrift(
      [
        {
          cluster: 'dev',
          server: api.url,
          token: TOKEN,
          timeoutMs: 2_000,
          caData: api.caData,
        },
      ],
      { profiles: [staticProfile], graceMs: 10 * 60_000 },
    );
    const before = api.requests.length;
    await reader.refresh();
    expect(api.requests.slice(before).sort()).toEqual(
      [
        ...COMMON_PATHS,
        '/apis/nfd.k8s-sigs.io/v1alpha1/nodefeaturerules',
      ].sort(),
    );
    const withNodeNames = { clusters: new Map([['dev', named]]) };
    expect(reader.poolDriftOf('dev', TS_POOL, withNodeNames)).toEqual([
      {
        kind: 'nodefeaturerule-node-unlabeled',
        object: 'Node/gpu-t4-02',
        message: expect.stringContaining(
          'has no gpu.backstage.io/pool=gpu-t4-ts4 45 min after the rule was written',
        ),
      },
    ]);
    expect(reader.poolDriftOf('dev', MIG_POOL, withNodeNames)).toEqual([
      {
        kind: 'nodefeaturerule-missing',
        object: `NodeFeatureRule/${MIG_POOL}`,
        message: expect.stringContaining('is in Git'),
      },
    ]);

    const withoutInventory = await readWith(
      resolveClusterProfile({ name: 'dev', provider: 'static' }),
    );
    expect(withoutInventory.paths).toEqual(COMMON_PATHS);
    expect(withoutInventory.poolDrift(TS_POOL)).toEqual([]);
  });

  it('a cluster without the API of its pool kind (404 on the list) is read: Cluster API pools say nothing (it runs elsewhere), NFD pools say NFD is missing', async () => {
    api.setContents({ nodePools: [], ...common() });
    const capi = await readWith(capiProfile);
    expect(capi.status.available).toBe(true);
    expect(capi.poolDrift(TS_POOL)).toEqual([]);
    expect(capi.notInGit()).toEqual([]);
    const nfd = await readWith(staticProfile);
    expect(nfd.status.available).toBe(true);
    expect(nfd.poolDrift(TS_POOL)?.map(f => f.message)).toEqual([
      expect.stringContaining(
        'the cluster serves no NodeFeatureRule API (nfd.k8s-sigs.io/v1alpha1)',
      ),
    ]);
  });

  it("a refused token names the grants the cluster's provider needs", async () => {
    const capi = await readWith(capiProfile, 'not-the-token');
    expect(capi.status.reason).toMatch(
      /refused to .* \(HTTP 401\): the token needs list on machinedeployments \(cluster\.x-k8s\.io\) in namespace capi-dev, nodes, pods and events/,
    );
    const nfd = await readWith(staticProfile, 'not-the-token');
    expect(nfd.status.reason).toMatch(
      /the token needs list on nodefeaturerules \(nfd\.k8s-sigs\.io\), nodes, pods and events/,
    );
  });

  it('serves only MachineDeployments and NodeFeatureRules that match the upstream CRDs', () => {
    const deployment = machineDeployment(TS_POOL, {
      namespace: 'capi-dev',
      replicas: 1,
      now,
    });
    expect(() =>
      api.setContents({
        nodePools: [],
        ...common(),
        machineDeployments: [
          {
            ...deployment,
            spec: { ...deployment.spec, clusterName: undefined },
          },
        ],
      }),
    ).toThrow(
      /MachineDeployment cluster\.x-k8s\.io\/v1beta2 does not match .*clusterName/,
    );
    const rule = nodeFeatureRule(TS_POOL, {
      nodeNames: [],
      writtenMinutesAgo: 1,
      now,
    });
    expect(() =>
      api.setContents({
        nodePools: [],
        ...common(),
        nodeFeatureRules: [{ ...rule, spec: { rules: [{ labels: {} }] } }],
      }),
    ).toThrow(/NodeFeatureRule nfd\.k8s-sigs\.io\/v1alpha1 does not match/);
  });
});
