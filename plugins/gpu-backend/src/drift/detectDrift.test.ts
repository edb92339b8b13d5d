import type { V1Node } from '@kubernetes/client-node';
import {
  failedScheduling,
  node,
  nodeOverlay,
  nodePool,
  pendingPod,
} from '../__testUtils__/clusterFixtures';
import {
  capiProfile,
  devCluster,
  staticProfile,
} from './__testUtils__/driftRepo';
import { detectDrift } from './detectDrift';
import type { ClusterObjects } from './readClusterObjects';

const now = new Date('2026-11-27T12:00:00Z');
const GRACE_MS = 10 * 60_000;
const TS_POOL = 'gpu-t4-ts4';
const MIG_POOL = 'gpu-a100-mig-1g.10gb';

/** A cluster that runs exactly what Git says. */
function agreeing(): ClusterObjects {
  return {
    nodePools: [nodePool(TS_POOL, { now }), nodePool(MIG_POOL, { now })],
    nodeOverlays: [
      nodeOverlay(`${TS_POOL}-1gpu`, TS_POOL, { validated: true, now }),
      nodeOverlay(`${MIG_POOL}-8gpu`, MIG_POOL, { validated: true, now }),
    ],
    nodes: [
      node('ip-10-0-1-7', {
        pool: TS_POOL,
        labels: { 'nvidia.com/device-plugin.config': 'ts-4' },
        allocatable: { 'nvidia.com/gpu.shared': '4' },
        ageMinutes: 60,
        now,
      }),
      node('ip-10-0-2-9', {
        pool: MIG_POOL,
        labels: {
          'nvidia.com/gpu.count': '8',
          'nvidia.com/mig.config': 'all-1g.10gb',
          'nvidia.com/mig.config.state': 'success',
        },
        allocatable: { 'nvidia.com/mig-1g.10gb': '56' },
        ageMinutes: 60,
        now,
      }),
    ] as unknown as V1Node[],
    pendingPods: [],
    schedulingEvents: [],
    devicePluginConfigKeys: ['ts-4'],
  } as unknown as ClusterObjects;
}

const detect = (objects: ClusterObjects) =>
  detectDrift(objects, {
    profile: devCluster.profile,
    repoState: devCluster.repoState,
    now,
    graceMs: GRACE_MS,
  });

const kinds = (findings: { kind: string }[] | undefined) =>
  (findings ?? []).map(f => f.kind);

describe('detectDrift', () => {
  it('finds nothing when the cluster runs what Git says', () => {
    const { byPool, byWorkload } = detect(agreeing());
    expect([...byPool.values()].flat()).toEqual([]);
    expect([...byWorkload.values()].flat()).toEqual([]);
    expect([...byPool.keys()]).toEqual([TS_POOL, MIG_POOL]);
    expect([...byWorkload.keys()]).toEqual(['ml/chat', 'ml/embed']);
  });

  it('a NodePool missing from the cluster, or not Ready, with its reason', () => {
    const objects = agreeing();
    objects.nodePools = [
      nodePool(MIG_POOL, {
        ready: false,
        reason: 'NodeClassNotReady',
        message: 'EC2NodeClass gpu not found',
        now,
      }) as any,
    ];
    const { byPool } = detect(objects);
    expect(byPool.get(TS_POOL)).toEqual([
      {
        kind: 'nodepool-missing',
        object: `NodePool/${TS_POOL}`,
        message: `NodePool ${TS_POOL} is in Git (clusters/dev/gpu/nodepools/${TS_POOL}.yaml) but not in the cluster: not synced yet, or the sync failed; no node of this pool can start`,
      },
    ]);
    expect(byPool.get(MIG_POOL)).toEqual([
      {
        kind: 'nodepool-not-ready',
        object: `NodePool/${MIG_POOL}`,
        message: `NodePool ${MIG_POOL} is not Ready (NodeClassNotReady: EC2NodeClass gpu not found); Karpenter launches no node for it`,
      },
    ]);
  });

  it('NodeOverlays: no API, none for the pool, not validated (feature gate off), or failed validation', () => {
    const noApi = agreeing();
    delete noApi.nodeOverlays;
    expect(kinds(detect(noApi).byPool.get(TS_POOL))).toEqual([
      'nodeoverlay-missing',
    ]);
    expect(detect(noApi).byPool.get(TS_POOL)?.[0].message).toMatch(
      /serves no NodeOverlay API .* pods asking for nvidia\.com\/gpu\.shared stay Pending/,
    );

    const noneScoped = agreeing();
    noneScoped.nodeOverlays = noneScoped.nodeOverlays!.filter(
      o => !o.metadata.name.startsWith(TS_POOL),
    );
    expect(kinds(detect(noneScoped).byPool.get(TS_POOL))).toEqual([
      'nodeoverlay-missing',
    ]);
    expect(kinds(detect(noneScoped).byPool.get(MIG_POOL))).toEqual([]);

    const gateOff = agreeing();
    gateOff.nodeOverlays = [
      nodeOverlay(`${TS_POOL}-1gpu`, TS_POOL, { now }),
      nodeOverlay(`${MIG_POOL}-8gpu`, MIG_POOL, { now }),
    ] as any;
    const offFindings = detect(gateOff).byPool.get(TS_POOL)!;
    expect(offFindings).toEqual([
      {
        kind: 'nodeoverlay-gate-off',
        object: `NodeOverlay/${TS_POOL}-1gpu`,
        message: expect.stringContaining(
          'its NodeOverlay feature gate is off (--feature-gates NodeOverlay=true',
        ),
      },
    ]);

    const invalid = agreeing();
    invalid.nodeOverlays![0] = nodeOverlay(`${TS_POOL}-1gpu`, TS_POOL, {
      validated: false,
      message: 'conflicts with gpu-t4-other-1gpu',
      now,
    }) as any;
    expect(detect(invalid).byPool.get(TS_POOL)).toEqual([
      {
        kind: 'nodeoverlay-invalid',
        object: `NodeOverlay/${TS_POOL}-1gpu`,
        message: `NodeOverlay ${TS_POOL}-1gpu failed Karpenter's validation (Conflict: conflicts with gpu-t4-other-1gpu); Karpenter does not apply it`,
      },
    ]);
  });

  it('a device-plugin ConfigMap that is missing, or a node naming a key it lacks', () => {
    const noConfigMap = agreeing();
    delete noConfigMap.devicePluginConfigKeys;
    expect(detect(noConfigMap).byPool.get(TS_POOL)).toEqual([
      {
        kind: 'device-plugin-config-missing',
        object: 'ConfigMap/gpu-operator/nvidia-device-plugin-configs',
        message:
          'the device-plugin ConfigMap gpu-operator/nvidia-device-plugin-configs is not in the cluster: the device plugin runs its default config and advertises whole GPUs, not nvidia.com/gpu.shared',
      },
    ]);
    // Pools without a device-plugin config are not concerned.
    expect(kinds(detect(noConfigMap).byPool.get(MIG_POOL))).toEqual([]);

    const wrongKey = agreeing();
    wrongKey.devicePluginConfigKeys = ['ts-2'];
    expect(detect(wrongKey).byPool.get(TS_POOL)).toEqual([
      {
        kind: 'device-plugin-config-missing',
        object: 'Node/ip-10-0-1-7',
        message:
          'node ip-10-0-1-7 asks for device-plugin config "ts-4", which the ConfigMap gpu-operator/nvidia-device-plugin-configs does not have (keys: ts-2): its GPUs are not shared as planned',
      },
    ]);
  });

  it("a node whose MIG manager did not succeed, or whose allocatable differs from the plan's", () => {
    const objects = agreeing();
    const [tsNode, migNode] = objects.nodes as any[];
    migNode.metadata.labels['nvidia.com/mig.config.state'] = 'failed';
    migNode.status.allocatable = { 'nvidia.com/gpu': '8' };
    tsNode.status.allocatable['nvidia.com/gpu.shared'] = '1';
    const { byPool } = detect(objects);
    expect(byPool.get(MIG_POOL)).toEqual([
      {
        kind: 'mig-config-failed',
        object: 'Node/ip-10-0-2-9',
        message:
          'node ip-10-0-2-9: the MIG manager reports nvidia.com/mig.config.state=failed for config "all-1g.10gb"; its MIG instances are not as planned',
      },
      {
        kind: 'allocatable-differs',
        object: 'Node/ip-10-0-2-9',
        message:
          'node ip-10-0-2-9 offers 0 nvidia.com/mig-1g.10gb where the plan gives 8 GPUs × 7 = 56',
      },
    ]);
    expect(byPool.get(TS_POOL)).toEqual([
      {
        kind: 'allocatable-differs',
        object: 'Node/ip-10-0-1-7',
        message:
          'node ip-10-0-1-7 offers 1 nvidia.com/gpu.shared where the plan gives 1 GPUs × 4 = 4',
      },
    ]);
  });

  it('a node younger than the grace period may still be starting its device plugin', () => {
    const objects = agreeing();
    (objects.nodes as any[])[0] = node('ip-10-0-1-8', {
      pool: TS_POOL,
      labels: { 'nvidia.com/device-plugin.config': 'ts-4' },
      ageMinutes: 3,
      now,
    });
    expect(kinds(detect(objects).byPool.get(TS_POOL))).toEqual([]);
  });

  it("pods of a request pending past the grace period, with their latest scheduling events; never another workload's", () => {
    const objects = agreeing();
    objects.pendingPods = [
      pendingPod('ml', 'chat-7d9f8b6c5d-x2x7q', { ageMinutes: 25, now }),
      pendingPod('ml', 'chat-7d9f8b6c5d-k8s9w', { ageMinutes: 12, now }),
      // Young: may still be waiting for its node.
      pendingPod('ml', 'chat-7d9f8b6c5d-zzzzz', { ageMinutes: 2, now }),
      // Another workload whose name starts with the same word.
      pendingPod('ml', 'chat-api-5c6d7e8f9a-abcde', { ageMinutes: 40, now }),
    ] as any;
    const noInstance =
      '0/3 nodes are available: 3 Insufficient nvidia.com/gpu.shared. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod.';
    objects.schedulingEvents = [
      failedScheduling('ml', 'chat-7d9f8b6c5d-x2x7q', noInstance, {
        ageMinutes: 20,
        now,
      }),
      failedScheduling('ml', 'chat-7d9f8b6c5d-k8s9w', noInstance, {
        ageMinutes: 11,
        now,
      }),
      failedScheduling(
        'ml',
        'chat-7d9f8b6c5d-x2x7q',
        '0/2 nodes are available: 2 node(s) had untolerated taint {nvidia.com/gpu: true}.',
        { ageMinutes: 5, now },
      ),
      failedScheduling('ml', 'chat-api-5c6d7e8f9a-abcde', 'not ours', {
        ageMinutes: 1,
        now,
      }),
    ] as any;
    const { byWorkload } = detect(objects);
    expect(byWorkload.get('ml/chat')).toEqual([
      {
        kind: 'pods-pending',
        object: 'Pod/ml/chat-7d9f8b6c5d-x2x7q',
        message: '2 pods Pending for up to 25 min',
        events: [
          'FailedScheduling: 0/2 nodes are available: 2 node(s) had untolerated taint {nvidia.com/gpu: true}.',
          `FailedScheduling: ${noInstance}`,
        ],
      },
    ]);
    expect(byWorkload.get('ml/embed')).toEqual([]);
  });

  it('a NodePool we generated that Git no longer has; never a hand-written one', () => {
    const objects = agreeing();
    const orphan = nodePool('gpu-l4-ts2', { now }) as any;
    orphan.metadata.labels = {
      'app.kubernetes.io/managed-by': 'backstage-gpu-gitops',
    };
    const handWritten = nodePool('team-a-gpus', { now }) as any;
    objects.nodePools = [...objects.nodePools, orphan, handWritten];
    expect(detect(objects).notInGit).toEqual([
      {
        kind: 'nodepool-not-in-git',
        object: 'NodePool/gpu-l4-ts2',
        message:
          'NodePool gpu-l4-ts2 runs in the cluster but Git no longer has it: the sync does not prune it (its nodes still cost money)',
      },
    ]);
    expect(detect(agreeing()).notInGit).toEqual([]);
  });

  it.each([
    ['Cluster API', capiProfile],
    ['static', staticProfile],
  ])(
    "%s nodes are their pool's by the product's pool label, so the node rules apply to them",
    (_, profile) => {
      const objects = agreeing();
      objects.devicePluginConfigKeys = ['ts-2'];
      objects.nodes = [
        node('gpu-t4-01', {
          pool: TS_POOL,
          poolLabel: 'gpu.backstage.io/pool',
          labels: { 'nvidia.com/device-plugin.config': 'ts-4' },
          allocatable: { 'nvidia.com/gpu.shared': '4' },
          ageMinutes: 60,
          now,
        }),
        node('ip-10-0-1-7', {
          pool: TS_POOL,
          labels: { 'nvidia.com/device-plugin.config': 'ts-4' },
          allocatable: { 'nvidia.com/gpu.shared': '4' },
          ageMinutes: 60,
          now,
        }),
      ] as unknown as V1Node[];
      const options = {
        repoState: devCluster.repoState,
        now,
        graceMs: GRACE_MS,
      };
      const onProvider = detectDrift(objects, { ...options, profile });
      expect(onProvider.byPool.get(TS_POOL)).toEqual([
        {
          kind: 'device-plugin-config-missing',
          object: 'Node/gpu-t4-01',
          message: expect.stringContaining(
            'asks for device-plugin config "ts-4"',
          ),
        },
      ]);
      // Karpenter's nodes by Karpenter's label, which adopted pools' nodes
      // carry without ours.
      const onKarpenter = detect(objects);
      expect(onKarpenter.byPool.get(TS_POOL)?.map(f => f.object)).toEqual([
        'Node/ip-10-0-1-7',
      ]);
    },
  );

  it.each(['static', 'cluster-api'] as const)(
    '%s clusters have no NodePools or overlays to compare',
    provider => {
      const objects = agreeing();
      objects.nodePools = [];
      delete objects.nodeOverlays;
      const { byPool } = detectDrift(objects, {
        profile: { ...devCluster.profile, provider },
        repoState: devCluster.repoState,
        now,
        graceMs: GRACE_MS,
      });
      expect([...byPool.values()].flat()).toEqual([]);
      // The same objects on a Karpenter cluster: NodePools missing.
      const { byPool: karpenter } = detectDrift(objects, {
        profile: devCluster.profile,
        repoState: devCluster.repoState,
        now,
        graceMs: GRACE_MS,
      });
      expect([...karpenter.values()].flat()).not.toEqual([]);
    },
  );
});
