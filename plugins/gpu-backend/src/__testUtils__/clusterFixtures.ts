/**
 * TEST-ONLY: cluster objects as a Kubernetes API returns them (NodePool
 * karpenter.sh/v1 and NodeOverlay v1alpha1 of Karpenter v1.14 with their
 * status conditions, MachineDeployment cluster.x-k8s.io/v1beta2 of Cluster
 * API v1.14 with the status its controller writes, NodeFeatureRule
 * nfd.k8s-sigs.io/v1alpha1 of NFD v0.19, Nodes with GPU Feature Discovery
 * and MIG manager labels, Pods, FailedScheduling Events, the device-plugin
 * ConfigMap), for drift tests. The fake API server validates each against
 * its schema.
 */
const minutesAgo = (now: Date, minutes: number) =>
  new Date(now.getTime() - minutes * 60_000).toISOString();

const condition = (
  type: string,
  status: 'True' | 'False' | 'Unknown',
  at: string,
  reason = status === 'True' ? type : `Not${type}`,
  message = '',
) => ({ type, status, reason, message, lastTransitionTime: at });

export function nodePool(
  name: string,
  options: { ready?: boolean; reason?: string; message?: string; now: Date },
) {
  const at = minutesAgo(options.now, 60);
  return {
    apiVersion: 'karpenter.sh/v1',
    kind: 'NodePool',
    metadata: { name },
    spec: {
      template: {
        metadata: { labels: { 'gpu.backstage.io/pool': name } },
        spec: {
          nodeClassRef: {
            group: 'karpenter.k8s.aws',
            kind: 'EC2NodeClass',
            name: 'gpu',
          },
          requirements: [
            {
              key: 'karpenter.k8s.aws/instance-gpu-name',
              operator: 'In',
              values: ['t4'],
            },
          ],
        },
      },
    },
    status: {
      conditions:
        options.ready === false
          ? [
              condition(
                'Ready',
                'False',
                at,
                options.reason ?? 'NodeClassNotReady',
                options.message ?? 'EC2NodeClass gpu not found',
              ),
            ]
          : [condition('Ready', 'True', at)],
    },
  };
}

export function nodeOverlay(
  name: string,
  pool: string,
  options: { validated?: boolean; message?: string; now: Date },
) {
  const at = minutesAgo(options.now, 60);
  return {
    apiVersion: 'karpenter.sh/v1alpha1',
    kind: 'NodeOverlay',
    metadata: { name },
    spec: {
      requirements: [
        { key: 'karpenter.sh/nodepool', operator: 'In', values: [pool] },
        {
          key: 'karpenter.k8s.aws/instance-gpu-count',
          operator: 'In',
          values: ['1'],
        },
      ],
      capacity: { 'nvidia.com/gpu.shared': '4' },
    },
    // Karpenter's overlay controller writes the condition only when its
    // NodeOverlay feature gate is on.
    ...(options.validated === undefined
      ? {}
      : {
          status: {
            conditions: [
              condition(
                'ValidationSucceeded',
                options.validated ? 'True' : 'False',
                at,
                options.validated ? 'ValidationSucceeded' : 'Conflict',
                options.message ?? '',
              ),
            ],
          },
        }),
  };
}

/** Cluster API's aggregate of its machines' Ready conditions (`setMachinesReadyCondition`). */
function machinesReady(
  name: string,
  current: number,
  ready: number,
  at: string,
) {
  if (current === 0)
    return condition('MachinesReady', 'True', at, 'NoReplicas');
  if (ready === current) return condition('MachinesReady', 'True', at, 'Ready');
  return condition(
    'MachinesReady',
    'False',
    at,
    'NotReady',
    `* Machine ${name}-7c9d8-x2x7q:\n  * NodeHealthy: Waiting for a Node with spec.providerID openstack:///0b6e2b1c to exist`,
  );
}

/** `status.phase` as `setPhase` sets it from desired and current machines. */
function machineDeploymentPhase(desired: number, current: number) {
  if (current < desired) return 'ScalingUp';
  if (current > desired) return 'ScalingDown';
  return 'Running';
}

/**
 * A MachineDeployment as Cluster API v1.14.0's controller leaves it
 * (kubernetes-sigs/cluster-api `core/reconcilers/machinedeployment/machinedeployment_status.go`):
 * `status.replicas` the machines it has, `readyReplicas` and
 * `availableReplicas` those whose Ready / Available condition is True
 * (minReadySeconds 0: ready is available), and the conditions those counts
 * imply, set `shortForMinutes` ago.
 */
export function machineDeployment(
  name: string,
  options: {
    namespace: string;
    replicas: number;
    /** Machines Cluster API created (default: `replicas`). */
    current?: number;
    /** Machines whose Ready condition is True (default: `current`). */
    ready?: number;
    /** Since when the counts are what they are (default 60). */
    shortForMinutes?: number;
    /** Carries our `app.kubernetes.io/managed-by`. */
    managed?: boolean;
    /** Cluster API never reconciled it: no status. */
    unreconciled?: boolean;
    now: Date;
  },
) {
  const current = options.current ?? options.replicas;
  const ready = options.ready ?? current;
  const at = minutesAgo(options.now, options.shortForMinutes ?? 60);
  const machineLabels = {
    'cluster.x-k8s.io/cluster-name': 'dev',
    'cluster.x-k8s.io/deployment-name': name,
  };
  const conditions = [
    ready >= options.replicas
      ? condition('Available', 'True', at, 'Available')
      : condition(
          'Available',
          'False',
          at,
          'NotAvailable',
          `${ready} available replicas, at least ${options.replicas} required (spec.strategy.rollout.maxUnavailable is 0, spec.replicas is ${options.replicas})`,
        ),
    current < options.replicas
      ? condition(
          'ScalingUp',
          'True',
          at,
          'ScalingUp',
          `Scaling up from ${current} to ${options.replicas} replicas`,
        )
      : condition('ScalingUp', 'False', at, 'NotScalingUp'),
    machinesReady(name, current, ready, at),
  ];
  return {
    apiVersion: 'cluster.x-k8s.io/v1beta2',
    kind: 'MachineDeployment',
    metadata: {
      name,
      namespace: options.namespace,
      creationTimestamp: minutesAgo(options.now, 120),
      labels: {
        'cluster.x-k8s.io/cluster-name': 'dev',
        ...(options.managed
          ? { 'app.kubernetes.io/managed-by': 'backstage-gpu-gitops' }
          : {}),
      },
    },
    spec: {
      clusterName: 'dev',
      replicas: options.replicas,
      selector: { matchLabels: machineLabels },
      template: {
        metadata: { labels: machineLabels },
        spec: {
          clusterName: 'dev',
          version: 'v1.33.1',
          bootstrap: {
            configRef: {
              apiGroup: 'bootstrap.cluster.x-k8s.io',
              kind: 'KubeadmConfigTemplate',
              name: `${name}-0a1b2c3d`,
            },
          },
          infrastructureRef: {
            apiGroup: 'infrastructure.cluster.x-k8s.io',
            kind: 'OpenStackMachineTemplate',
            name: `${name}-4e5f6a7b`,
          },
        },
      },
    },
    ...(options.unreconciled
      ? {}
      : {
          status: {
            replicas: current,
            readyReplicas: ready,
            availableReplicas: ready,
            upToDateReplicas: current,
            phase: machineDeploymentPhase(options.replicas, current),
            selector: `cluster.x-k8s.io/cluster-name=dev,cluster.x-k8s.io/deployment-name=${name}`,
            observedGeneration: 1,
            conditions,
          },
        }),
  };
}

/**
 * A NodeFeatureRule as the product writes a static pool's (its nodes by
 * name; the pool label and taint), last written by the GitOps sync
 * `writtenMinutesAgo` (its managed-fields time).
 */
export function nodeFeatureRule(
  name: string,
  options: {
    nodeNames: string[];
    writtenMinutesAgo: number;
    managed?: boolean;
    now: Date;
  },
) {
  return {
    apiVersion: 'nfd.k8s-sigs.io/v1alpha1',
    kind: 'NodeFeatureRule',
    metadata: {
      name,
      creationTimestamp: minutesAgo(options.now, 24 * 60),
      ...(options.managed === false
        ? {}
        : {
            labels: { 'app.kubernetes.io/managed-by': 'backstage-gpu-gitops' },
          }),
      managedFields: [
        {
          manager: 'kustomize-controller',
          operation: 'Apply',
          apiVersion: 'nfd.k8s-sigs.io/v1alpha1',
          time: minutesAgo(options.now, options.writtenMinutesAgo),
          fieldsType: 'FieldsV1',
          fieldsV1: { 'f:spec': { 'f:rules': {} } },
        },
      ],
    },
    spec: {
      rules: [
        {
          name,
          labels: { 'gpu.backstage.io/pool': name },
          taints: [
            { key: 'nvidia.com/gpu', value: name, effect: 'NoSchedule' },
          ],
          matchFeatures: [
            {
              feature: 'system.name',
              matchExpressions: {
                nodename: { op: 'In', value: options.nodeNames },
              },
            },
          ],
        },
      ],
    },
  };
}

export function node(
  name: string,
  options: {
    pool: string;
    /**
     * The label naming the node's pool: Karpenter's `karpenter.sh/nodepool`
     * (the default), or the product's `gpu.backstage.io/pool` that Cluster
     * API (kubelet `node-labels`) and static (NFD) nodes carry.
     */
    poolLabel?: string;
    labels?: Record<string, string>;
    allocatable?: Record<string, string>;
    ageMinutes: number;
    now: Date;
  },
) {
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name,
      creationTimestamp: minutesAgo(options.now, options.ageMinutes),
      labels: {
        [options.poolLabel ?? 'karpenter.sh/nodepool']: options.pool,
        'node.kubernetes.io/instance-type': 'g4dn.xlarge',
        'nvidia.com/gpu.present': 'true',
        'nvidia.com/gpu.product': 'Tesla-T4',
        'nvidia.com/gpu.count': '1',
        ...options.labels,
      },
    },
    spec: {
      taints: [{ key: 'nvidia.com/gpu', value: 'true', effect: 'NoSchedule' }],
    },
    status: {
      allocatable: { cpu: '3920m', memory: '15Gi', ...options.allocatable },
      conditions: [
        {
          type: 'Ready',
          status: 'True',
          reason: 'KubeletReady',
          message: 'kubelet is posting ready status',
          lastHeartbeatTime: minutesAgo(options.now, 0),
          lastTransitionTime: minutesAgo(options.now, options.ageMinutes),
        },
      ],
    },
  };
}

export function pendingPod(
  namespace: string,
  name: string,
  options: { ageMinutes: number; now: Date; resource?: string },
) {
  const created = minutesAgo(options.now, options.ageMinutes);
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace, creationTimestamp: created },
    spec: {
      containers: [
        {
          name: 'app',
          image: 'ghcr.io/acme/app:1.0.0',
          resources: {
            limits: { [options.resource ?? 'nvidia.com/gpu.shared']: '1' },
          },
        },
      ],
    },
    status: {
      phase: 'Pending',
      conditions: [
        {
          type: 'PodScheduled',
          status: 'False',
          reason: 'Unschedulable',
          lastTransitionTime: created,
        },
      ],
    },
  };
}

/**
 * A pending pod of a `dra` request: its GPU comes from claim `gpu`, made
 * from the workload's ResourceClaimTemplate (the shape the product renders,
 * gpu-common `manifests/gpuPodSpec.ts`); the claim controller has made
 * `claimName` for it (`status.resourceClaimStatuses`).
 */
export function draPendingPod(
  namespace: string,
  name: string,
  options: {
    ageMinutes: number;
    now: Date;
    template: string;
    claimName: string;
  },
) {
  const pod = pendingPod(namespace, name, options);
  const [container] = pod.spec.containers;
  return {
    ...pod,
    metadata: { ...pod.metadata, uid: `uid-${name}` },
    spec: {
      containers: [{ ...container, resources: { claims: [{ name: 'gpu' }] } }],
      resourceClaims: [
        { name: 'gpu', resourceClaimTemplateName: options.template },
      ],
    },
    status: {
      ...pod.status,
      resourceClaimStatuses: [
        { name: 'gpu', resourceClaimName: options.claimName },
      ],
    },
  };
}

/**
 * The ResourceClaim (`resource.k8s.io/v1`) the claim controller makes for
 * `pod`'s claim `gpu` (owned by the pod, annotated with the pod's claim
 * name), asking for one device of `deviceClassName` whose CEL selector is
 * `expression`; allocated to a device of `node` or not (no `status`).
 */
export function podResourceClaim(
  pod: { metadata: { name: string; namespace: string; uid?: string } },
  claimName: string,
  options: {
    deviceClassName: string;
    expression: string;
    allocatedOn?: string;
  },
) {
  const { name, namespace, uid } = pod.metadata;
  const claim = {
    apiVersion: 'resource.k8s.io/v1',
    kind: 'ResourceClaim',
    metadata: {
      name: claimName,
      namespace,
      annotations: { 'resource.kubernetes.io/pod-claim-name': 'gpu' },
      ownerReferences: [
        {
          apiVersion: 'v1',
          kind: 'Pod',
          name,
          uid: uid ?? `uid-${name}`,
          controller: true,
          blockOwnerDeletion: true,
        },
      ],
    },
    spec: {
      devices: {
        requests: [
          {
            name: 'gpu',
            exactly: {
              deviceClassName: options.deviceClassName,
              selectors: [{ cel: { expression: options.expression } }],
            },
          },
        ],
      },
    },
  };
  if (!options.allocatedOn) return claim;
  return {
    ...claim,
    status: {
      allocation: {
        devices: {
          results: [
            {
              request: 'gpu',
              driver: 'gpu.nvidia.com',
              pool: options.allocatedOn,
              device: 'gpu-0',
            },
          ],
        },
        nodeSelector: {
          nodeSelectorTerms: [
            {
              matchFields: [
                {
                  key: 'metadata.name',
                  operator: 'In',
                  values: [options.allocatedOn],
                },
              ],
            },
          ],
        },
      },
      reservedFor: [{ resource: 'pods', name, uid: uid ?? `uid-${name}` }],
    },
  };
}

/** A pod of the bin-packing scheduler's Deployment (the bootstrap's labels), ready or still starting. */
export function schedulerPod(
  name: string,
  options: { ready: boolean; now: Date },
) {
  const started = minutesAgo(options.now, 20);
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace: 'kube-system',
      labels: {
        'app.kubernetes.io/name': 'gpu-binpack',
        'app.kubernetes.io/component': 'scheduler',
      },
      creationTimestamp: started,
    },
    spec: {
      serviceAccountName: 'gpu-binpack',
      containers: [
        {
          name: 'kube-scheduler',
          image: 'registry.k8s.io/kube-scheduler:v1.36.2',
        },
      ],
    },
    status: {
      phase: 'Running',
      conditions: [
        {
          type: 'Ready',
          status: options.ready ? 'True' : 'False',
          lastTransitionTime: started,
        },
      ],
      containerStatuses: [
        {
          name: 'kube-scheduler',
          image: 'registry.k8s.io/kube-scheduler:v1.36.2',
          imageID: '',
          ready: options.ready,
          restartCount: options.ready ? 0 : 7,
          started: options.ready,
          state: options.ready
            ? { running: { startedAt: started } }
            : {
                waiting: {
                  reason: 'CrashLoopBackOff',
                  message: 'back-off restarting failed container',
                },
              },
        },
      ],
    },
  };
}

export function failedScheduling(
  namespace: string,
  pod: string,
  message: string,
  options: { ageMinutes: number; now: Date },
) {
  const at = minutesAgo(options.now, options.ageMinutes);
  return {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name: `${pod}.18a7${options.ageMinutes}`, namespace },
    involvedObject: { kind: 'Pod', name: pod, namespace, apiVersion: 'v1' },
    reason: 'FailedScheduling',
    message,
    type: 'Warning',
    source: { component: 'default-scheduler' },
    firstTimestamp: at,
    lastTimestamp: at,
    count: 1,
  };
}

export function configMap(
  namespace: string,
  name: string,
  data: Record<string, string>,
) {
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name, namespace },
    data,
  };
}
