/**
 * Hand-written plans and manifest sets for the merge-engine tests, shaped like
 * what the planner and manifest builders produce (contracts in gpu-common).
 */
import type {
  ClusterProfile,
  GpuRequest,
  KubernetesObject,
  ManifestSet,
  Plan,
} from '@gpu-gitops/plugin-gpu-common';

export const devCluster: ClusterProfile = {
  name: 'dev',
  provider: 'aws-karpenter',
  karpenterVersion: '1.14.1',
  nodeClass: { group: 'karpenter.k8s.aws', kind: 'EC2NodeClass', name: 'gpu' },
  generateNodeClass: false,
  devicePluginConfigMap: {
    name: 'device-plugin-config',
    namespace: 'gpu-operator',
  },
  migPartedConfigMap: { name: 'mig-parted-config', namespace: 'gpu-operator' },
  migStrategy: 'mixed',
  nodeOverlay: true,
  gpuTaintKey: 'nvidia.com/gpu',
  labelDomain: 'gpu.backstage.io',
  consolidateAfter: '5m',
  systemNamespaces: ['kube-system', 'kube-public', 'kube-node-lease'],
};

export interface Fixture {
  plan: Plan;
  manifests: ManifestSet;
}

function request(
  name: string,
  namespace: string,
  gpu: Partial<GpuRequest['spec']['gpu']>,
  workload: GpuRequest['spec']['workload'] = {
    image: `ghcr.io/example/${name}:1.0.0`,
  },
): GpuRequest {
  return {
    apiVersion: 'gpu.backstage.io/v1alpha1',
    kind: 'GpuRequest',
    metadata: { name, namespace },
    spec: {
      owner: 'group:default/ml-platform',
      gpu: {
        model: 't4',
        sharing: 'time-slicing',
        replicas: 2,
        vramGiB: 4,
        gpusPerReplica: 1,
        ...gpu,
      },
      workload,
      capacityTypes: ['on-demand'],
    },
  };
}

function nodePool(
  name: string,
  gpuName: string,
  instanceTypes: string[],
  labels: Record<string, string>,
  resourceName: string,
  limit: number,
  annotations: Record<string, string>,
): KubernetesObject {
  return {
    apiVersion: 'karpenter.sh/v1',
    kind: 'NodePool',
    metadata: {
      name,
      labels: { 'app.kubernetes.io/managed-by': 'backstage-gpu-gitops' },
      annotations,
    },
    spec: {
      template: {
        metadata: { labels },
        spec: {
          nodeClassRef: {
            group: 'karpenter.k8s.aws',
            kind: 'EC2NodeClass',
            name: 'gpu',
          },
          requirements: [
            {
              key: 'karpenter.k8s.aws/instance-gpu-manufacturer',
              operator: 'In',
              values: ['nvidia'],
            },
            {
              key: 'karpenter.k8s.aws/instance-gpu-name',
              operator: 'In',
              values: [gpuName],
            },
            {
              key: 'node.kubernetes.io/instance-type',
              operator: 'In',
              values: instanceTypes,
            },
            {
              key: 'karpenter.sh/capacity-type',
              operator: 'In',
              values: ['on-demand'],
            },
          ],
          taints: [
            { key: 'nvidia.com/gpu', value: 'true', effect: 'NoSchedule' },
          ],
          expireAfter: '720h',
        },
      },
      disruption: {
        consolidationPolicy: 'WhenEmptyOrUnderutilized',
        consolidateAfter: '5m',
      },
      limits: { [resourceName]: String(limit) },
    },
  };
}

function nodeOverlay(
  pool: string,
  gpuCount: number,
  resourceName: string,
  capacity: number,
): KubernetesObject {
  return {
    apiVersion: 'karpenter.sh/v1alpha1',
    kind: 'NodeOverlay',
    metadata: { name: `${pool}-${gpuCount}gpu` },
    spec: {
      requirements: [
        { key: 'karpenter.sh/nodepool', operator: 'In', values: [pool] },
        {
          key: 'karpenter.k8s.aws/instance-gpu-count',
          operator: 'In',
          values: [String(gpuCount)],
        },
      ],
      capacity: { [resourceName]: String(capacity) },
    },
  };
}

function deployment(
  name: string,
  namespace: string,
  pool: string,
  resourceName: string,
  replicas: number,
  image: string,
  sharingMode: string,
): KubernetesObject {
  // As buildDeployment writes it: our annotations on the Deployment and its pods.
  const labels = () => ({
    'app.kubernetes.io/name': name,
    'backstage.io/kubernetes-id': name,
  });
  const annotations = () => ({
    'gpu.backstage.io/request': `${namespace}/${name}`,
    'gpu.backstage.io/pool': pool,
    'gpu.backstage.io/sharing-mode': sharingMode,
  });
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: {
      name,
      namespace,
      labels: labels(),
      annotations: annotations(),
    },
    spec: {
      replicas,
      selector: { matchLabels: { 'app.kubernetes.io/name': name } },
      template: {
        metadata: { labels: labels(), annotations: annotations() },
        spec: {
          nodeSelector: { 'karpenter.sh/nodepool': pool },
          tolerations: [
            { key: 'nvidia.com/gpu', operator: 'Exists', effect: 'NoSchedule' },
          ],
          containers: [
            { name, image, resources: { limits: { [resourceName]: '1' } } },
          ],
        },
      },
    },
  };
}

function basePlan(
  req: GpuRequest,
  poolName: string,
  resourceName: string,
  limits: Record<string, number>,
): Plan {
  return {
    request: req,
    cluster: 'dev',
    pool: {
      name: poolName,
      gpuModel: req.spec.gpu.model,
      instanceTypes: ['g4dn.xlarge'],
      gpuCounts: [1],
      karpenterGpuNames: ['t4'],
      capacityTypes: ['on-demand'],
      reused: false,
      taint: { key: 'nvidia.com/gpu', value: 'true', effect: 'NoSchedule' },
      labels: {},
      limits,
      ledger: [
        {
          request: `${req.metadata.namespace}/${req.metadata.name}`,
          replicas: req.spec.gpu.replicas,
          unitsPerReplica: 1,
        },
      ],
    },
    leftPools: [],
    sharing: { mode: req.spec.gpu.sharing },
    resourceName,
    resourcePerReplica: 1,
    perReplica: {
      vramGiB: req.spec.gpu.vramGiB,
      vramGuaranteed: false,
      memoryMiB: 3840,
      gpuShare: 0.25,
    },
    nodes: { expected: 1, slicesPerNode: 4, instanceType: 'g4dn.xlarge' },
    physicalGpus: 0.5,
    // The merge engine never reads costs or decisions.
    cost: {
      usdPerHour: 0.526,
      usdPerMonth: 383.98,
      marginalUsdPerMonth: 383.98,
      priceKnown: true,
      pool: {
        name: poolName,
        nodes: 1,
        nodeUsdPerMonth: 383.98,
        usdPerMonth: 383.98,
        idleUsdPerMonth: 0,
        capacityUnits: 4,
        allocatedUnits: 4,
        idleUnits: 0,
        shares: [],
      },
    },
    decisions: {
      model: { choice: 'fixture', reason: 'fixture', considered: [] },
      sharing: { choice: 'fixture', reason: 'fixture', considered: [] },
      pool: { choice: 'fixture', reason: 'fixture', considered: [] },
    },
    warnings: [],
    explanation: ['fixture'],
  };
}

/** A time-sliced T4 request: pool gpu-t4-ts4, device-plugin config ts-4. */
export function timeSlicingFixture(
  options: {
    name?: string;
    replicas?: number;
    limit?: number;
    reused?: boolean;
    image?: string;
    slices?: number;
  } = {},
): Fixture {
  const name = options.name ?? 'summarizer';
  const slices = options.slices ?? 4;
  const replicas = options.replicas ?? 2;
  const poolName = `gpu-t4-ts${slices}`;
  const configName = `ts-${slices}`;
  const image = options.image ?? `ghcr.io/example/${name}:1.0.0`;
  const resourceName = 'nvidia.com/gpu.shared';
  const limit = options.limit ?? 8;
  const req = request(
    name,
    'ml',
    { replicas, slicesPerGpu: slices },
    { image },
  );
  const labels = {
    'gpu.backstage.io/pool': poolName,
    'nvidia.com/device-plugin.config': configName,
  };
  const plan = basePlan(req, poolName, resourceName, { [resourceName]: limit });
  plan.pool.reused = options.reused ?? false;
  plan.pool.labels = labels;
  plan.sharing = {
    mode: 'time-slicing',
    slicesPerGpu: slices,
    deviceConfigName: configName,
  };
  const manifests: ManifestSet = {
    pool: {
      name: poolName,
      objects: [
        nodePool(poolName, 't4', ['g4dn.xlarge'], labels, resourceName, limit, {
          'gpu.backstage.io/gpu-model': 't4',
          'gpu.backstage.io/sharing-mode': 'time-slicing',
          'gpu.backstage.io/resource-name': resourceName,
          'gpu.backstage.io/slices-per-gpu': String(slices),
          'gpu.backstage.io/requests': `ml/${name}=${replicas}`,
        }),
        nodeOverlay(poolName, 1, resourceName, slices),
      ],
    },
    devicePluginConfig: {
      name: configName,
      config: {
        version: 'v1',
        flags: { migStrategy: 'none' },
        sharing: {
          timeSlicing: {
            renameByDefault: true,
            failRequestsGreaterThanOne: true,
            resources: [{ name: 'nvidia.com/gpu', replicas: slices }],
          },
        },
      },
    },
    workload: {
      namespace: 'ml',
      component: name,
      mode: 'new',
      objects: [
        deployment(
          name,
          'ml',
          poolName,
          resourceName,
          replicas,
          image,
          'time-slicing',
        ),
      ],
    },
  };
  return { plan, manifests };
}

/** A MIG request on A100-40GB: pool gpu-a100-40gb-mig-<profile>, mig config all-<profile>. */
export function migFixture(
  options: { name?: string; profile?: string; count?: number } = {},
): Fixture {
  const name = options.name ?? 'trainer';
  const profile = options.profile ?? '1g.5gb';
  const count = options.count ?? 7;
  const poolName = `gpu-a100-40gb-mig-${profile}`;
  const configName = `all-${profile}`;
  const resourceName = `nvidia.com/mig-${profile}`;
  const req = request(name, 'ml', {
    model: 'a100-40gb',
    sharing: 'mig',
    replicas: 4,
    vramGiB: 4,
  });
  const labels = {
    'gpu.backstage.io/pool': poolName,
    'nvidia.com/mig.config': configName,
  };
  const plan = basePlan(req, poolName, resourceName, { [resourceName]: 56 });
  plan.pool.gpuModel = 'a100-40gb';
  plan.pool.instanceTypes = ['p4d.24xlarge'];
  plan.pool.gpuCounts = [8];
  plan.pool.karpenterGpuNames = ['a100'];
  plan.pool.labels = labels;
  plan.sharing = {
    mode: 'mig',
    migProfile: profile,
    migLayout: { [profile]: count },
    migConfigName: configName,
  };
  const manifests: ManifestSet = {
    pool: {
      name: poolName,
      objects: [
        nodePool(poolName, 'a100', ['p4d.24xlarge'], labels, resourceName, 56, {
          'gpu.backstage.io/gpu-model': 'a100-40gb',
          'gpu.backstage.io/sharing-mode': 'mig',
          'gpu.backstage.io/resource-name': resourceName,
          'gpu.backstage.io/mig-profile': profile,
          'gpu.backstage.io/requests': `ml/${name}=4`,
        }),
        nodeOverlay(poolName, 8, resourceName, count * 8),
      ],
    },
    migConfig: {
      name: configName,
      entries: [
        {
          devices: 'all',
          'mig-enabled': true,
          'mig-devices': { [profile]: count },
        },
      ],
    },
    workload: {
      namespace: 'ml',
      component: name,
      mode: 'new',
      objects: [
        deployment(
          name,
          'ml',
          poolName,
          resourceName,
          4,
          `ghcr.io/example/${name}:1.0.0`,
          'mig',
        ),
      ],
    },
  };
  return { plan, manifests };
}

/** An exclusive request that patches the existing Deployment ml/recommender-api. */
export function patchFixture(): Fixture {
  const name = 'recommender-api';
  const req = request(
    name,
    'ml',
    { sharing: 'exclusive', replicas: 3, vramGiB: 12 },
    {
      existing: { kind: 'Deployment', name },
    },
  );
  const poolName = 'gpu-t4-exclusive';
  const plan = basePlan(req, poolName, 'nvidia.com/gpu', {
    'nvidia.com/gpu': 3,
  });
  plan.pool.labels = { 'gpu.backstage.io/pool': poolName };
  plan.sharing = { mode: 'exclusive' };
  const manifests: ManifestSet = {
    pool: {
      name: poolName,
      objects: [
        nodePool(
          poolName,
          't4',
          ['g4dn.xlarge'],
          plan.pool.labels,
          'nvidia.com/gpu',
          3,
          {
            'gpu.backstage.io/gpu-model': 't4',
            'gpu.backstage.io/sharing-mode': 'exclusive',
            'gpu.backstage.io/resource-name': 'nvidia.com/gpu',
            'gpu.backstage.io/requests': `ml/${name}=3`,
          },
        ),
      ],
    },
    workload: {
      namespace: 'ml',
      component: name,
      mode: 'patch',
      objects: [
        {
          apiVersion: 'apps/v1',
          kind: 'Deployment',
          metadata: { name, namespace: 'ml' },
          spec: {
            template: {
              spec: {
                nodeSelector: { 'karpenter.sh/nodepool': poolName },
                tolerations: [
                  {
                    key: 'nvidia.com/gpu',
                    operator: 'Exists',
                    effect: 'NoSchedule',
                  },
                ],
                containers: [
                  {
                    name: 'api',
                    resources: { limits: { 'nvidia.com/gpu': '1' } },
                  },
                ],
              },
            },
          },
        },
      ],
    },
  };
  return { plan, manifests };
}
