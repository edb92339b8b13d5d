import type { V1Node } from '@kubernetes/client-node';
import type { ClusterProfile, RepoState } from '@gpu-gitops/plugin-gpu-common';
import {
  failedScheduling,
  machineDeployment,
  node,
  nodeFeatureRule,
  nodeOverlay,
  nodePool,
  pendingPod,
} from '../__testUtils__/clusterFixtures';
import { resolveClusterProfile } from '@gpu-gitops/plugin-gpu-common';
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

const detectOn = (profile: ClusterProfile, objects: ClusterObjects) =>
  detectDrift(objects, {
    profile,
    repoState: devCluster.repoState,
    now,
    graceMs: GRACE_MS,
  });

/**
 * A cluster of the profile's provider that runs what Git says: the same
 * nodes, pods and ConfigMap as `agreeing()`, and its pools as the objects
 * its provider makes them (ready MachineDeployments, NodeFeatureRules).
 */
function agreeingOn(profile: ClusterProfile): ClusterObjects {
  const { nodePools, nodeOverlays, ...rest } = agreeing();
  const pools = [TS_POOL, MIG_POOL];
  if (profile.provider === 'cluster-api') {
    return {
      ...rest,
      machineDeployments: pools.map(name =>
        machineDeployment(name, { namespace: 'capi-dev', replicas: 2, now }),
      ) as any,
    };
  }
  if (profile.provider === 'static') {
    return {
      ...rest,
      nodeFeatureRules: pools.map(name =>
        nodeFeatureRule(name, { nodeNames: [], writtenMinutesAgo: 60, now }),
      ) as any,
    };
  }
  return { ...rest, nodePools, nodeOverlays };
}

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

  it('a Ready NodePool whose launched nodes fail to join (NodeRegistrationHealthy False), with Karpenter’s reason', () => {
    const objects = agreeing();
    const failing = objects.nodePools!.find(p => p.metadata.name === TS_POOL)!;
    failing.status!.conditions!.push({
      type: 'NodeRegistrationHealthy',
      status: 'False',
      reason: 'RegistrationFailed',
      message: 'Failed to register node',
      lastTransitionTime: now.toISOString(),
    });
    const { byPool } = detect(objects);
    expect(byPool.get(TS_POOL)).toEqual([
      {
        kind: 'nodepool-registration-unhealthy',
        object: `NodePool/${TS_POOL}`,
        message: `the nodes Karpenter launches for NodePool ${TS_POOL} fail to launch or join the cluster (RegistrationFailed: Failed to register node); check its node class (AMI and GPU driver, subnets, node role): pods of this pool wait meanwhile`,
      },
    ]);
    // Healthy again (True), or never judged (absent): nothing.
    failing.status!.conditions!.at(-1)!.status = 'True';
    expect(detect(objects).byPool.get(TS_POOL)).toEqual([]);
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
    objects.nodePools = [...objects.nodePools!, orphan, handWritten];
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
      const objects = agreeingOn(profile);
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
      expect(detectOn(profile, objects).byPool.get(TS_POOL)).toEqual([
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
      objects.nodePools = agreeing().nodePools;
      objects.nodeOverlays = agreeing().nodeOverlays;
      expect(
        detect(objects)
          .byPool.get(TS_POOL)
          ?.map(f => f.object),
      ).toEqual(['Node/ip-10-0-1-7']);
    },
  );

  it.each([
    ['Cluster API', capiProfile],
    ['static', staticProfile],
  ])(
    '%s clusters are not compared with NodePools or NodeOverlays',
    (_, profile) => {
      const objects = agreeingOn(profile);
      objects.nodePools = [];
      delete objects.nodeOverlays;
      const { byPool } = detectOn(profile, objects);
      expect([...byPool.values()].flat()).toEqual([]);
      // The same objects on a Karpenter cluster: NodePools missing.
      expect(kinds([...detect(objects).byPool.values()].flat())).toContain(
        'nodepool-missing',
      );
    },
  );

  describe('Cluster API pools: MachineDeployments', () => {
    const NAMESPACE = 'capi-dev';
    const deployment = (
      name: string,
      options: Partial<Parameters<typeof machineDeployment>[1]> = {},
    ) =>
      machineDeployment(name, {
        namespace: NAMESPACE,
        replicas: 2,
        now,
        ...options,
      }) as any;
    const tsFindings = (objects: ClusterObjects) =>
      detectOn(capiProfile, objects).byPool.get(TS_POOL);

    it('a MachineDeployment missing from the cluster; nothing when the cluster serves no MachineDeployment API', () => {
      const missing = agreeingOn(capiProfile);
      missing.machineDeployments = [deployment(MIG_POOL)];
      expect(tsFindings(missing)).toEqual([
        {
          kind: 'machinedeployment-missing',
          object: `MachineDeployment/${NAMESPACE}/${TS_POOL}`,
          message: `MachineDeployment ${NAMESPACE}/${TS_POOL} is in Git (clusters/dev/gpu/nodepools/${TS_POOL}.yaml) but not in the cluster: not synced yet, or the sync failed; Cluster API creates no machine for this pool`,
        },
      ]);
      // One in another namespace is not the pool's.
      missing.machineDeployments.push({
        ...deployment(TS_POOL),
        metadata: { ...deployment(TS_POOL).metadata, namespace: 'default' },
      });
      expect(kinds(tsFindings(missing))).toEqual([]);

      // Cluster API in a separate management cluster: this cluster cannot
      // tell, so no pool says anything about its MachineDeployment.
      const noApi = agreeingOn(capiProfile);
      delete noApi.machineDeployments;
      expect(tsFindings(noApi)).toEqual([]);
    });

    it('fewer ready machines than spec.replicas past the grace period, with the conditions that say why', () => {
      const scaling = agreeingOn(capiProfile);
      scaling.machineDeployments = [
        deployment(TS_POOL, { current: 0, ready: 0, shortForMinutes: 25 }),
        // Machines created, none of them ready (e.g. no node joined).
        deployment(MIG_POOL, { current: 2, ready: 1, shortForMinutes: 40 }),
      ];
      const { byPool } = detectOn(capiProfile, scaling);
      expect(byPool.get(TS_POOL)).toEqual([
        {
          kind: 'machinedeployment-not-ready',
          object: `MachineDeployment/${NAMESPACE}/${TS_POOL}`,
          message: `MachineDeployment ${NAMESPACE}/${TS_POOL} has had 0 of 2 machines ready for 25 min (Available False: 0 available replicas, at least 2 required (spec.strategy.rollout.maxUnavailable is 0, spec.replicas is 2); ScalingUp True: Scaling up from 0 to 2 replicas): pods of pool ${TS_POOL} wait for its nodes`,
        },
      ]);
      expect(byPool.get(MIG_POOL)).toEqual([
        {
          kind: 'machinedeployment-not-ready',
          object: `MachineDeployment/${NAMESPACE}/${MIG_POOL}`,
          message: `MachineDeployment ${NAMESPACE}/${MIG_POOL} has had 1 of 2 machines ready for 40 min (Available False: 1 available replicas, at least 2 required (spec.strategy.rollout.maxUnavailable is 0, spec.replicas is 2); MachinesReady False: * Machine ${MIG_POOL}-7c9d8-x2x7q: * NodeHealthy: Waiting for a Node with spec.providerID openstack:///0b6e2b1c to exist): pods of pool ${MIG_POOL} wait for its nodes`,
        },
      ]);
    });

    it('a shortfall younger than the grace period is not drift, nor a rollout whose surge machine is not ready yet', () => {
      const young = agreeingOn(capiProfile);
      young.machineDeployments = [
        deployment(TS_POOL, { current: 0, ready: 0, shortForMinutes: 4 }),
      ];
      expect(kinds(tsFindings(young))).toEqual([]);

      // Rolling out: a third machine beside the two ready ones.
      const surge = agreeingOn(capiProfile);
      surge.machineDeployments = [
        deployment(TS_POOL, { current: 3, ready: 2, shortForMinutes: 30 }),
      ];
      expect(
        surge.machineDeployments[0].status?.conditions?.find(
          c => c.type === 'MachinesReady',
        )?.status,
      ).toBe('False');
      expect(kinds(tsFindings(surge))).toEqual([]);
      // The surge machine has not been ready for 30 min, but a pool machine
      // failed only 2 min ago: the pool has been short for 2 min.
      const failed = deployment(TS_POOL, {
        current: 3,
        ready: 1,
        shortForMinutes: 30,
      });
      failed.status.conditions.find(
        (c: { type: string }) => c.type === 'Available',
      ).lastTransitionTime = new Date(now.getTime() - 2 * 60_000).toISOString();
      surge.machineDeployments = [failed];
      expect(kinds(tsFindings(surge))).toEqual([]);
    });

    it('a MachineDeployment Cluster API never reconciled, once past the grace period', () => {
      const objects = agreeingOn(capiProfile);
      objects.machineDeployments = [
        deployment(TS_POOL, { unreconciled: true }),
      ];
      expect(tsFindings(objects)).toEqual([
        {
          kind: 'machinedeployment-not-ready',
          object: `MachineDeployment/${NAMESPACE}/${TS_POOL}`,
          message: `MachineDeployment ${NAMESPACE}/${TS_POOL} has no status conditions: Cluster API has not reconciled it (is its controller running? does Cluster ${NAMESPACE}/dev exist?)`,
        },
      ]);
      const young = {
        ...deployment(TS_POOL, { unreconciled: true }),
        metadata: {
          ...deployment(TS_POOL).metadata,
          creationTimestamp: new Date(now.getTime() - 60_000).toISOString(),
        },
      };
      objects.machineDeployments = [young];
      expect(kinds(tsFindings(objects))).toEqual([]);
    });

    it('a MachineDeployment we generated that Git no longer has; never a hand-written one', () => {
      const objects = agreeingOn(capiProfile);
      objects.machineDeployments = [
        ...objects.machineDeployments!,
        deployment('gpu-l4-ts2', { managed: true }),
        // Hand-written: not ours, whether or not Git has it.
        deployment('cpu-workers'),
        deployment('team-a-gpus'),
      ];
      const repoState: RepoState = {
        ...devCluster.repoState,
        otherNodePools: ['cpu-workers'],
      };
      expect(
        detectDrift(objects, {
          profile: capiProfile,
          repoState,
          now,
          graceMs: GRACE_MS,
        }).notInGit,
      ).toEqual([
        {
          kind: 'machinedeployment-not-in-git',
          object: `MachineDeployment/${NAMESPACE}/gpu-l4-ts2`,
          message: `MachineDeployment ${NAMESPACE}/gpu-l4-ts2 runs in the cluster but Git no longer has it: the sync does not prune it (its machines still run and cost money)`,
        },
      ]);
      expect(detectOn(capiProfile, agreeingOn(capiProfile)).notInGit).toEqual(
        [],
      );
    });
  });

  describe('static pools: NodeFeatureRules', () => {
    /** Git's T4 pool holds two inventory nodes by name. */
    const namedRepo: RepoState = {
      ...devCluster.repoState,
      pools: devCluster.repoState.pools.map(p =>
        p.name === TS_POOL
          ? { ...p, nodeNames: ['gpu-t4-01', 'gpu-t4-02'] }
          : p,
      ),
    };
    const labelled = (name: string, pool = TS_POOL) =>
      node(name, {
        pool,
        poolLabel: 'gpu.backstage.io/pool',
        allocatable: { 'nvidia.com/gpu.shared': '4' },
        ageMinutes: 60,
        now,
      });
    /** The rule applied: both named nodes carry the pool label. */
    const applied = (writtenMinutesAgo = 60): ClusterObjects => ({
      ...agreeingOn(staticProfile),
      nodeFeatureRules: [
        nodeFeatureRule(TS_POOL, {
          nodeNames: ['gpu-t4-01', 'gpu-t4-02'],
          writtenMinutesAgo,
          now,
        }),
        nodeFeatureRule(MIG_POOL, { nodeNames: [], writtenMinutesAgo, now }),
      ] as any,
      nodes: [labelled('gpu-t4-01'), labelled('gpu-t4-02')] as any,
    });
    const tsFindings = (objects: ClusterObjects) =>
      detectDrift(objects, {
        profile: staticProfile,
        repoState: namedRepo,
        now,
        graceMs: GRACE_MS,
      }).byPool.get(TS_POOL);

    it('finds nothing when the rule is applied to the nodes it names', () => {
      expect(tsFindings(applied())).toEqual([]);
    });

    it('a NodeFeatureRule missing from the cluster, or no NodeFeatureRule API at all', () => {
      const missing = applied();
      missing.nodeFeatureRules = missing.nodeFeatureRules!.filter(
        r => r.metadata.name !== TS_POOL,
      );
      expect(tsFindings(missing)).toEqual([
        {
          kind: 'nodefeaturerule-missing',
          object: `NodeFeatureRule/${TS_POOL}`,
          message: `NodeFeatureRule ${TS_POOL} is in Git (clusters/dev/gpu/nodepools/${TS_POOL}.yaml) but not in the cluster: not synced yet, or the sync failed; nfd-master gives the pool's nodes neither its labels nor its taint, so no pod of the pool is placed there`,
        },
      ]);
      const noApi = applied();
      delete noApi.nodeFeatureRules;
      expect(tsFindings(noApi)).toEqual([
        {
          kind: 'nodefeaturerule-missing',
          object: `NodeFeatureRule/${TS_POOL}`,
          message: expect.stringContaining(
            'the cluster serves no NodeFeatureRule API (nfd.k8s-sigs.io/v1alpha1)',
          ),
        },
      ]);
    });

    it('a node the rule names that is absent or not labelled for the pool past the grace period', () => {
      const objects = applied(30);
      objects.nodes = [labelled('gpu-t4-02', 'gpu-t4-other')] as any;
      expect(tsFindings(objects)).toEqual([
        {
          kind: 'nodefeaturerule-node-unlabeled',
          object: 'Node/gpu-t4-01',
          message: `node gpu-t4-01, which NodeFeatureRule ${TS_POOL} names, has no gpu.backstage.io/pool=${TS_POOL} 30 min after the rule was written: the node is not in the cluster, or nfd-master has not applied the rule to it (no nfd-worker reports its features?); pods of the pool are not placed on it`,
        },
        {
          kind: 'nodefeaturerule-node-unlabeled',
          object: 'Node/gpu-t4-02',
          message: `node gpu-t4-02, which NodeFeatureRule ${TS_POOL} names, carries gpu.backstage.io/pool=gpu-t4-other: another rule, or a hand-set label, gives it to pool gpu-t4-other`,
        },
      ]);
      // A rule the sync wrote a moment ago: nfd-master may not have run yet.
      const fresh = applied(2);
      fresh.nodes = [];
      expect(tsFindings(fresh)).toEqual([]);
    });

    it('without a node inventory nothing is written for a pool, so there is no rule to miss', () => {
      const profile = resolveClusterProfile({
        name: 'dev',
        provider: 'static',
      });
      const objects = applied();
      delete objects.nodeFeatureRules;
      objects.nodes = [];
      const { byPool } = detectDrift(objects, {
        profile,
        repoState: namedRepo,
        now,
        graceMs: GRACE_MS,
      });
      expect([...byPool.values()].flat()).toEqual([]);
    });

    it('a NodeFeatureRule we generated that Git no longer has; never a hand-written one', () => {
      const objects = applied();
      objects.nodeFeatureRules!.push(
        nodeFeatureRule('gpu-l4-ts2', {
          nodeNames: ['gpu-l4-01'],
          writtenMinutesAgo: 60,
          now,
        }) as any,
        nodeFeatureRule('infiniband-nics', {
          nodeNames: ['gpu-t4-01'],
          writtenMinutesAgo: 60,
          managed: false,
          now,
        }) as any,
      );
      expect(detectOn(staticProfile, objects).notInGit).toEqual([
        {
          kind: 'nodefeaturerule-not-in-git',
          object: 'NodeFeatureRule/gpu-l4-ts2',
          message:
            'NodeFeatureRule gpu-l4-ts2 runs in the cluster but Git no longer has it: the sync does not prune it (nfd-master still labels and taints its nodes)',
        },
      ]);
    });
  });
});
