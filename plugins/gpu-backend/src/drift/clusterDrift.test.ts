/**
 * Drift through the real client (@kubernetes/client-node) against the fake
 * API server: the fixed calls per refresh, the token, the answer when the
 * API is unreachable, stalled, or refuses the token.
 */
import type { GpuAllocation } from '@gpu-gitops/plugin-gpu-common';
import {
  configMap,
  failedScheduling,
  node,
  nodeOverlay,
  nodePool,
  pendingPod,
} from '../__testUtils__/clusterFixtures';
import {
  startKubernetesApiServer,
  type ClusterContents,
  type KubernetesApiServer,
} from '../__testUtils__/kubernetesApiServer';
import { devCluster } from './__testUtils__/driftRepo';
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
