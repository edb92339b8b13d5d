/**
 * Drift on the providers whose nodes the cloud makes and labels itself,
 * through the real client against the fake API server: GKE (the pool is a
 * ComputeClass, validated against GKE's CRD; its nodes carry
 * `cloud.google.com/compute-class` and GKE's sharing labels) and EKS Auto
 * Mode (the pool is a `karpenter.sh/v1` NodePool AWS's Karpenter reconciles;
 * its nodes carry `karpenter.sh/nodepool` and
 * `eks.amazonaws.com/compute-type: auto`).
 */
import {
  resolveClusterProfile,
  type ClusterProfile,
  type RepoState,
} from '@gpu-gitops/plugin-gpu-common';
import { node, nodePool, pendingPod } from '../__testUtils__/clusterFixtures';
import {
  startKubernetesApiServer,
  type ClusterContents,
  type KubernetesApiServer,
} from '../__testUtils__/kubernetesApiServer';
import { devCluster } from './__testUtils__/driftRepo';
import { ClusterDrift } from './clusterDrift';

const TOKEN = 'sa-token-gke-auto';
const now = new Date();

/** A ComputeClass as the product writes it (gpu-common `manifests/computeClass.ts`). */
function computeClass(name: string, managed = true) {
  return {
    apiVersion: 'cloud.google.com/v1',
    kind: 'ComputeClass',
    metadata: {
      name,
      ...(managed
        ? { labels: { 'app.kubernetes.io/managed-by': 'backstage-gpu-gitops' } }
        : {}),
    },
    spec: {
      priorities: [
        {
          machineType: 'g2-standard-8',
          spot: false,
          gpu: {
            type: 'nvidia-l4',
            count: 1,
            driverVersion: 'default',
            gpuSharing: {
              sharingStrategy: 'TIME_SHARING',
              maxSharedClientsPerGPU: 4,
            },
          },
        },
      ],
      nodePoolAutoCreation: { enabled: true },
      whenUnsatisfiable: 'DoNotScaleUp',
    },
  };
}

const L4_TS = 'gpu-l4-ts4';
const L4_MIG = 'gpu-a100-mig-2g.10gb';
const L40S = 'gpu-l40s';
const L4 = 'gpu-l4';

/** What Git says of each cluster: pools as the product writes them there (no device-plugin config). */
const gkeState: RepoState = {
  pools: [
    {
      name: L4_TS,
      path: `clusters/dev/gpu/nodepools/${L4_TS}.yaml`,
      gpuModel: 'l4',
      sharingMode: 'time-slicing',
      slicesPerGpu: 4,
      resourceName: 'nvidia.com/gpu',
      instanceTypes: ['g2-standard-8'],
      capacityTypes: ['on-demand'],
    },
    {
      name: L4_MIG,
      path: `clusters/dev/gpu/nodepools/${L4_MIG}.yaml`,
      gpuModel: 'a100-40gb',
      sharingMode: 'mig',
      migProfile: '2g.10gb',
      resourceName: 'nvidia.com/gpu',
      instanceTypes: ['a2-highgpu-1g'],
      capacityTypes: ['on-demand'],
    },
  ],
  devicePluginConfigs: {},
  migConfigs: {},
  workloads: [
    {
      id: 'ml/chat',
      namespace: 'ml',
      name: 'chat',
      path: 'apps/ml/chat/deployment.yaml',
      pool: L4_TS,
      resourceName: 'nvidia.com/gpu',
      replicas: 2,
      perReplica: 1,
    },
  ],
};

const autoState: RepoState = {
  pools: [L40S, L4].map(name => ({
    name,
    path: `clusters/dev/gpu/nodepools/${name}.yaml`,
    gpuModel: name === L40S ? 'l40s' : 'l4',
    sharingMode: 'exclusive' as const,
    resourceName: 'nvidia.com/gpu',
    instanceTypes: [name === L40S ? 'g6e.xlarge' : 'g6.xlarge'],
    capacityTypes: ['on-demand' as const],
  })),
  devicePluginConfigs: {},
  migConfigs: {},
  workloads: [
    {
      id: 'ml/chat',
      namespace: 'ml',
      name: 'chat',
      path: 'apps/ml/chat/deployment.yaml',
      pool: L40S,
      resourceName: 'nvidia.com/gpu',
      replicas: 2,
      perReplica: 1,
    },
  ],
};

const gke = resolveClusterProfile({
  name: 'dev',
  provider: 'gke',
  region: 'us-central1',
});
const autoMode = resolveClusterProfile({
  name: 'dev',
  provider: 'eks-auto-mode',
  region: 'us-east-1',
  kubernetesVersion: '1.36',
});

const COMMON = [
  '/api/v1/events?fieldSelector=involvedObject.kind%3DPod%2Creason%3DFailedScheduling',
  '/api/v1/namespaces/gpu-operator/configmaps/nvidia-device-plugin-configs',
  '/api/v1/pods?fieldSelector=status.phase%3DPending',
];

describe('drift on GKE and EKS Auto Mode', () => {
  let api: KubernetesApiServer;
  beforeAll(async () => {
    api = await startKubernetesApiServer({
      token: TOKEN,
      contents: {
        nodePools: [],
        nodes: [],
        pods: [],
        events: [],
        configMaps: [],
      },
    });
  });
  afterAll(async () => {
    await api?.stop();
  });

  async function readWith(
    profile: ClusterProfile,
    repoState: RepoState,
    contents: ClusterContents,
  ) {
    api.setContents(contents);
    const reader = new ClusterDrift(
      [
        {
          cluster: 'dev',
          server: api.url,
          token: TOKEN,
          // A loaded two-core machine: the first TLS handshake may take seconds.
          timeoutMs: 10_000,
          caData: api.caData,
        },
      ],
      { profiles: [profile], graceMs: 10 * 60_000 },
    );
    const before = api.requests.length;
    const [status] = await reader.refresh();
    const snapshot = {
      clusters: new Map([['dev', { ...devCluster, profile, repoState }]]),
    };
    return {
      status,
      paths: api.requests.slice(before).sort(),
      poolDrift: (pool: string) => reader.poolDriftOf('dev', pool, snapshot),
      notInGit: () => reader.notInGitOf('dev', snapshot),
    };
  }

  it('GKE: lists ComputeClasses, finds a pool’s class present or missing, a class Git no longer has, and nodes by the class label GKE sets', async () => {
    const read = await readWith(gke, gkeState, {
      nodePools: [],
      computeClasses: [
        computeClass(L4_TS),
        computeClass('gpu-t4-old'),
        // The team's own class: not Git's to miss.
        computeClass('general', false),
      ],
      nodes: [
        // Made from an older class: two clients per GPU.
        node('gke-dev-l4-ts4-a1b2', {
          pool: L4_TS,
          poolLabel: 'cloud.google.com/compute-class',
          labels: {
            'cloud.google.com/gke-accelerator': 'nvidia-l4',
            'cloud.google.com/gke-gpu-sharing-strategy': 'time-sharing',
            'cloud.google.com/gke-max-shared-clients-per-gpu': '2',
          },
          // GKE's device plugin advertises each client as nvidia.com/gpu.
          allocatable: { 'nvidia.com/gpu': '2' },
          ageMinutes: 60,
          now,
        }),
        node('gke-dev-l4-ts4-c3d4', {
          pool: L4_TS,
          poolLabel: 'cloud.google.com/compute-class',
          labels: {
            'cloud.google.com/gke-accelerator': 'nvidia-l4',
            'cloud.google.com/gke-gpu-sharing-strategy': 'time-sharing',
            'cloud.google.com/gke-max-shared-clients-per-gpu': '4',
          },
          allocatable: { 'nvidia.com/gpu': '4' },
          ageMinutes: 60,
          now,
        }),
        // Made from a class of another accelerator, shared as planned.
        node('gke-dev-l4-ts4-e5f6', {
          pool: L4_TS,
          poolLabel: 'cloud.google.com/compute-class',
          labels: {
            'cloud.google.com/gke-accelerator': 'nvidia-tesla-t4',
            'cloud.google.com/gke-gpu-sharing-strategy': 'time-sharing',
            'cloud.google.com/gke-max-shared-clients-per-gpu': '4',
          },
          allocatable: { 'nvidia.com/gpu': '4' },
          ageMinutes: 60,
          now,
        }),
      ],
      pods: [
        pendingPod('ml', 'chat-7d9f8b6c5d-x2x7q', {
          ageMinutes: 30,
          now,
          resource: 'nvidia.com/gpu',
        }),
      ],
      events: [],
      configMaps: [],
    });
    expect(read.status.available).toBe(true);
    expect(read.paths).toEqual(
      [
        ...COMMON,
        '/api/v1/nodes?labelSelector=cloud.google.com%2Fcompute-class',
        '/apis/cloud.google.com/v1/computeclasses',
      ].sort(),
    );
    expect(read.poolDrift(L4_TS)).toEqual([
      {
        kind: 'allocatable-differs',
        object: 'Node/gke-dev-l4-ts4-a1b2',
        message: `node gke-dev-l4-ts4-a1b2 of ComputeClass ${L4_TS} carries cloud.google.com/gke-max-shared-clients-per-gpu=2 where Git's class gives cloud.google.com/gke-max-shared-clients-per-gpu=4: GKE made it from another version of the class, and its GPUs are not shared as planned until GKE replaces it`,
      },
      {
        kind: 'allocatable-differs',
        object: 'Node/gke-dev-l4-ts4-e5f6',
        message: `node gke-dev-l4-ts4-e5f6 of ComputeClass ${L4_TS} carries cloud.google.com/gke-accelerator=nvidia-tesla-t4 where Git's class gives cloud.google.com/gke-accelerator=nvidia-l4: GKE made it from another version of the class, and its GPUs are not the pool's l4 until GKE replaces it`,
      },
      {
        kind: 'allocatable-differs',
        object: 'Node/gke-dev-l4-ts4-a1b2',
        message:
          'node gke-dev-l4-ts4-a1b2 offers 2 nvidia.com/gpu where the plan gives 1 GPUs × 4 = 4',
      },
    ]);
    expect(read.poolDrift(L4_MIG)).toEqual([
      {
        kind: 'computeclass-missing',
        object: `ComputeClass/${L4_MIG}`,
        message: `ComputeClass ${L4_MIG} is in Git (clusters/dev/gpu/nodepools/${L4_MIG}.yaml) but not in the cluster: not synced yet, or the sync failed; GKE creates no node pool for it, and its pods (selecting cloud.google.com/compute-class) stay Pending`,
      },
    ]);
    expect(read.notInGit()).toEqual([
      {
        kind: 'computeclass-not-in-git',
        object: 'ComputeClass/gpu-t4-old',
        message: expect.stringContaining(
          'runs in the cluster but Git no longer has it',
        ),
      },
    ]);
  });

  it('GKE without the ComputeClass API says nothing creates the pool’s nodes', async () => {
    const read = await readWith(gke, gkeState, {
      nodePools: [],
      nodes: [],
      pods: [],
      events: [],
      configMaps: [],
    });
    expect(read.status.available).toBe(true);
    expect(read.poolDrift(L4_TS)?.map(f => [f.kind, f.message])).toEqual([
      [
        'computeclass-missing',
        expect.stringContaining(
          'the cluster serves no ComputeClass API (cloud.google.com/v1)',
        ),
      ],
    ]);
  });

  it('serves only ComputeClasses that match GKE’s CRD', () => {
    const wrong = computeClass(L4_TS);
    expect(() =>
      api.setContents({
        nodePools: [],
        computeClasses: [
          { ...wrong, spec: { ...wrong.spec, whenUnsatisfiable: 'Sometimes' } },
        ],
        nodes: [],
        pods: [],
        events: [],
        configMaps: [],
      }),
    ).toThrow(/ComputeClass cloud\.google\.com\/v1 does not match/);
  });

  it('EKS Auto Mode: its NodePools present or missing, its nodes by karpenter.sh/nodepool, no NodeOverlay asked of a cluster without them', async () => {
    const read = await readWith(autoMode, autoState, {
      nodePools: [nodePool(L40S, { now })],
      nodes: [
        node('i-0a1b2c3d4e5f', {
          pool: L40S,
          labels: {
            'eks.amazonaws.com/compute-type': 'auto',
            'eks.amazonaws.com/instance-gpu-name': 'l40s',
          },
          allocatable: { 'nvidia.com/gpu': '1' },
          ageMinutes: 60,
          now,
        }),
      ],
      pods: [
        pendingPod('ml', 'chat-7d9f8b6c5d-x2x7q', {
          ageMinutes: 30,
          now,
          resource: 'nvidia.com/gpu',
        }),
      ],
      events: [],
      configMaps: [],
    });
    expect(read.status.available).toBe(true);
    expect(read.paths).toContain('/apis/karpenter.sh/v1/nodepools');
    expect(read.paths).toContain(
      '/api/v1/nodes?labelSelector=karpenter.sh%2Fnodepool',
    );
    expect(read.poolDrift(L40S)).toEqual([]);
    expect(read.poolDrift(L4)).toEqual([
      {
        kind: 'nodepool-missing',
        object: `NodePool/${L4}`,
        message: expect.stringContaining(
          `NodePool ${L4} is in Git (clusters/dev/gpu/nodepools/${L4}.yaml) but not in the cluster`,
        ),
      },
    ]);
  });
});
