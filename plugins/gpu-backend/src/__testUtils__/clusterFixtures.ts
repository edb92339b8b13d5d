/**
 * TEST-ONLY: cluster objects as a Kubernetes API returns them (NodePool
 * karpenter.sh/v1 and NodeOverlay v1alpha1 of Karpenter v1.14 with their
 * status conditions, Nodes with GPU Feature Discovery and MIG manager
 * labels, Pods, FailedScheduling Events, the device-plugin ConfigMap), for
 * drift tests. The fake API server validates each against its schema.
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
