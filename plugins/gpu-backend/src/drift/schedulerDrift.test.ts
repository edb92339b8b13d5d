/**
 * Drift of a cluster whose profile opts in to the bin-packing scheduler,
 * through the real client against the fake API server: pods pending with
 * `schedulerName: gpu-binpack` while no pod of that scheduler's Deployment
 * is ready are reported as waiting for it.
 */
import {
  resolveClusterProfile,
  type ClusterProfile,
  type GpuAllocation,
} from '@gpu-gitops/plugin-gpu-common';
import { pendingPod, schedulerPod } from '../__testUtils__/clusterFixtures';
import {
  startKubernetesApiServer,
  type ClusterContents,
  type KubernetesApiServer,
} from '../__testUtils__/kubernetesApiServer';
import { devCluster } from './__testUtils__/driftRepo';
import { ClusterDrift } from './clusterDrift';

const TOKEN = 'sa-token-5e1b0d';
const binPacking = resolveClusterProfile({
  name: 'dev',
  kubernetesVersion: '1.36.2',
  binPacking: true,
});
const chat = { id: 'ml/chat', cluster: 'dev' } as GpuAllocation;

describe('ClusterDrift: the bin-packing scheduler', () => {
  const now = new Date();
  let api: KubernetesApiServer;

  const chatPod = (schedulerName?: string) => {
    const pod = pendingPod('ml', 'chat-7d9f8b6c5d-x2x7q', {
      ageMinutes: 30,
      now,
    });
    return schedulerName
      ? { ...pod, spec: { ...pod.spec, schedulerName } }
      : pod;
  };
  const contents = (pods: ClusterContents['pods']): ClusterContents => ({
    nodePools: [],
    nodes: [],
    pods,
    events: [],
    configMaps: [],
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

  it('reports pods pending because the gpu-binpack scheduler is not running', async () => {
    api.setContents(
      contents([
        chatPod('gpu-binpack'),
        schedulerPod('gpu-binpack-6c9d7-abcde', { ready: false, now }),
      ]),
    );
    const { paths, findings } = await chatDrift(binPacking);
    expect(paths).toContain(
      '/api/v1/namespaces/kube-system/pods?labelSelector=app.kubernetes.io%2Fname%3Dgpu-binpack%2Capp.kubernetes.io%2Fcomponent%3Dscheduler',
    );
    expect(findings.map(f => f.kind)).toEqual([
      'pods-pending',
      'scheduler-not-running',
    ]);
    expect(findings[1]).toEqual({
      kind: 'scheduler-not-running',
      object: 'Deployment/kube-system/gpu-binpack',
      message: expect.stringContaining(
        '1 pod pending because the gpu-binpack scheduler is not running (Deployment kube-system/gpu-binpack: none of its 1 pods is ready)',
      ),
    });

    // No pod at all (the bootstrap's scheduler never applied).
    api.setContents(contents([chatPod('gpu-binpack')]));
    expect((await chatDrift(binPacking)).findings[1]?.message).toContain(
      'Deployment kube-system/gpu-binpack: it has no pod',
    );
  });

  it('says nothing of the scheduler once one of its pods is ready, nor of pods of the default scheduler', async () => {
    api.setContents(
      contents([
        chatPod('gpu-binpack'),
        schedulerPod('gpu-binpack-6c9d7-abcde', { ready: false, now }),
        schedulerPod('gpu-binpack-6c9d7-fghij', { ready: true, now }),
      ]),
    );
    expect((await chatDrift(binPacking)).findings.map(f => f.kind)).toEqual([
      'pods-pending',
    ]);
    api.setContents(contents([chatPod()]));
    expect((await chatDrift(binPacking)).findings.map(f => f.kind)).toEqual([
      'pods-pending',
    ]);
  });

  it('a profile that does not opt in: the scheduler is not looked up', async () => {
    api.setContents(contents([chatPod('gpu-binpack')]));
    const { paths, findings } = await chatDrift(devCluster.profile);
    expect(
      paths.some(p => p.startsWith('/api/v1/namespaces/kube-system/pods')),
    ).toBe(false);
    expect(findings.map(f => f.kind)).toEqual(['pods-pending']);
  });
});
