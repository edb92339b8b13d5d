/**
 * Drift of a cluster whose profile enables DRA, through the real client
 * against the fake API server serving `resource.k8s.io/v1` ResourceClaims
 * (validated against kubernetes-models): pods of a dra request pending
 * while their claims are not allocated are reported as waiting for a
 * device, with the claim and its device class.
 */
import {
  resolveClusterProfile,
  type ClusterProfile,
  type GpuAllocation,
} from '@gpu-gitops/plugin-gpu-common';
import {
  draPendingPod,
  podResourceClaim,
} from '../__testUtils__/clusterFixtures';
import {
  startKubernetesApiServer,
  type ClusterContents,
  type KubernetesApiServer,
} from '../__testUtils__/kubernetesApiServer';
import { devCluster } from './__testUtils__/driftRepo';
import { ClusterDrift } from './clusterDrift';

const TOKEN = 'sa-token-9c4e21';
const withDra = resolveClusterProfile({
  name: 'dev',
  karpenterVersion: '1.15.1',
  kubernetesVersion: '1.36.2',
  dra: { karpenterNvidiaGate: true },
});
const chat = { id: 'ml/chat', cluster: 'dev' } as GpuAllocation;
const CLAIMS_PATH = '/apis/resource.k8s.io/v1/resourceclaims';
const L4 = {
  deviceClassName: 'gpu.nvidia.com',
  expression: "device.attributes['gpu.nvidia.com'].productName == 'NVIDIA L4'",
};

describe('ClusterDrift: ResourceClaims of a dra request', () => {
  const now = new Date();
  let api: KubernetesApiServer;

  const pods = ['x2x7q', 'b8m4z'].map(suffix =>
    draPendingPod('ml', `chat-7d9f8b6c5d-${suffix}`, {
      ageMinutes: 30,
      now,
      template: 'chat-gpu',
      claimName: `chat-7d9f8b6c5d-${suffix}-gpu-k2x4q`,
    }),
  );
  const claims = (allocatedOn?: string) =>
    pods.map(pod =>
      podResourceClaim(
        pod,
        pod.status.resourceClaimStatuses[0].resourceClaimName,
        {
          ...L4,
          allocatedOn,
        },
      ),
    );
  const contents = (
    resourceClaims: ClusterContents['resourceClaims'],
  ): ClusterContents => ({
    nodePools: [],
    nodes: [],
    pods,
    events: [],
    configMaps: [],
    resourceClaims,
  });

  beforeAll(async () => {
    api = await startKubernetesApiServer({
      token: TOKEN,
      contents: contents([]),
    });
  });
  afterAll(async () => {
    await api?.stop();
  });

  async function chatDrift(profile: ClusterProfile) {
    const reader = new ClusterDrift(
      [
        {
          cluster: 'dev',
          server: api.url,
          token: TOKEN,
          // Generous: a loaded CI machine, not a stalled API, is what this test meets.
          timeoutMs: 15_000,
          caData: api.caData,
        },
      ],
      { profiles: [profile], graceMs: 10 * 60_000 },
    );
    const before = api.requests.length;
    const [status] = await reader.refresh();
    expect(status.available).toBe(true);
    const snapshot = {
      clusters: new Map([['dev', { ...devCluster, profile }]]),
    };
    return {
      paths: api.requests.slice(before),
      findings: reader.driftOf(chat, snapshot) ?? [],
    };
  }

  it('reports pods pending because their ResourceClaims are not allocated', async () => {
    api.setContents(contents(claims()));
    const { paths, findings } = await chatDrift(withDra);
    expect(paths).toContain(CLAIMS_PATH);
    expect(findings.map(f => f.kind)).toEqual([
      'pods-pending',
      'claim-unallocated',
    ]);
    expect(findings[1]).toEqual({
      kind: 'claim-unallocated',
      object: 'ResourceClaim/ml/chat-7d9f8b6c5d-x2x7q-gpu-k2x4q',
      message: expect.stringContaining(
        '2 pods wait for GPUs through DRA: 2 ResourceClaims (e.g. ml/chat-7d9f8b6c5d-x2x7q-gpu-k2x4q) are not allocated, as no node publishes a device of class gpu.nvidia.com',
      ),
    });
  });

  it('says nothing of claims once they are allocated', async () => {
    api.setContents(contents(claims('ip-10-0-1-7')));
    expect((await chatDrift(withDra)).findings.map(f => f.kind)).toEqual([
      'pods-pending',
    ]);
  });

  it('a cluster serving no resource.k8s.io/v1 is an answer, not a failure', async () => {
    api.setContents(contents(undefined));
    expect((await chatDrift(withDra)).findings.map(f => f.kind)).toEqual([
      'pods-pending',
    ]);
  });

  it('a profile without DRA: claims are not looked up', async () => {
    api.setContents(contents(claims()));
    const { paths, findings } = await chatDrift(devCluster.profile);
    expect(paths).not.toContain(CLAIMS_PATH);
    expect(findings.map(f => f.kind)).toEqual(['pods-pending']);
  });
});
