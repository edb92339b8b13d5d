import {
  formatReplicaGpuShare,
  parseGpuRequest,
  type AllocationResponse,
  type GpuRequest,
  type Plan,
  type QuotaUse,
} from '@gpu-gitops/plugin-gpu-common';
import { removeTempDirs } from '../gitopsFixtures';
import { mergeRequestsOnFixture, startGpuBackend } from './mergedRequests';

/**
 * Issue 11, "every number adds up", for the share of a GPU: one request of
 * each sharing mode is published and merged on a real GitOps repository,
 * then read back through the real gpu backend. For each, what a replica
 * holds times its replicas is the request's GPU equivalents — in the plan,
 * in the card's API and in the team's quota use — and a MIG instance's
 * compute share (1/7 of an A100's SMs for 1g.10gb) is a separate, named
 * figure, never the share it holds (one of its GPU's instances).
 */
jest.setTimeout(240_000);

// `single`: the MIG strategy with which the device plugin also runs MPS.
const MIG_SINGLE = { migStrategy: 'single' } as const;
const OWNER = 'group:default/ml-platform';

function gpuRequest(
  name: string,
  gpu: Partial<GpuRequest['spec']['gpu']>,
): GpuRequest {
  return parseGpuRequest({
    kind: 'GpuRequest',
    metadata: { name, namespace: 'ml' },
    spec: {
      owner: OWNER,
      cluster: 'dev',
      gpu: { replicas: 1, ...gpu },
      workload: { image: `ghcr.io/acme/${name}:1.0.0` },
    },
  });
}

const requests = [
  gpuRequest('trainer', {
    model: 'l4',
    sharing: 'exclusive',
    gpusPerReplica: 2,
    vramGiB: 30,
    replicas: 2,
  }),
  gpuRequest('search', {
    model: 't4',
    sharing: 'time-slicing',
    vramGiB: 3.5,
    replicas: 3,
  }),
  gpuRequest('embedder', {
    model: 'l4',
    sharing: 'mps',
    vramGiB: 6,
    replicas: 2,
  }),
  gpuRequest('tagger', {
    model: 'a100-40gb',
    sharing: 'mig',
    // 3g.20gb: 2 instances a GPU, each on 3 of its 7 compute slices.
    vramGiB: 15,
    replicas: 3,
  }),
  gpuRequest('vision', { model: 't4', sharing: 'dra', vramGiB: 8 }),
];

describe('a replica’s share of a GPU adds up in every mode: plan, card and quota', () => {
  const plans = new Map<string, Plan>();
  let baseUrl: string;
  let stop: () => Promise<void>;

  beforeAll(async () => {
    const merged = await mergeRequestsOnFixture(requests, MIG_SINGLE);
    for (const [name, result] of merged.published) plans.set(name, result.plan);
    ({ baseUrl, stop } = await startGpuBackend({
      remote: merged.remote,
      components: ['chat-assistant', ...plans.keys()],
      profile: MIG_SINGLE,
    }));
  });

  afterAll(async () => {
    await stop?.();
    removeTempDirs();
  });

  async function get<T>(route: string): Promise<T> {
    const res = await fetch(`${baseUrl}${route}`);
    expect(res.status).toBe(200);
    return (await res.json()) as T;
  }

  it('planned each mode as asked', () => {
    expect(
      Object.fromEntries([...plans].map(([name, p]) => [name, p.sharing.mode])),
    ).toEqual({
      trainer: 'exclusive',
      search: 'time-slicing',
      embedder: 'mps',
      tagger: 'mig',
      vision: 'dra',
    });
  });

  it.each(requests.map(r => r.metadata.name))(
    '%s: replicas × share held = GPU equivalents, in the plan and the card',
    async name => {
      const plan = plans.get(name)!;
      const replicas = plan.request.spec.gpu.replicas;
      expect(replicas * plan.perReplica.gpuShare).toBeCloseTo(
        plan.physicalGpus,
        4,
      );

      const card = await get<AllocationResponse>(
        `/allocation?entityRef=component:default/${name}`,
      );
      expect(card.allocations).toHaveLength(1);
      const [allocation] = card.allocations;
      expect(allocation.replicas).toBe(replicas);
      expect(allocation.gpuSharePerReplica).toBe(plan.perReplica.gpuShare);
      expect(allocation.physicalGpus).toBe(plan.physicalGpus);
      expect(allocation.replicas * allocation.gpuSharePerReplica).toBeCloseTo(
        allocation.physicalGpus,
        4,
      );
      expect(card.totals.physicalGpus).toBe(allocation.physicalGpus);
      // The compute share is MIG's alone, and the card reads the plan's.
      expect(allocation.computeSharePerReplica).toBe(
        plan.perReplica.computeShare,
      );
      expect(formatReplicaGpuShare(plan.perReplica)).toBe(
        formatReplicaGpuShare({
          gpuShare: allocation.gpuSharePerReplica,
          computeShare: allocation.computeSharePerReplica,
        }),
      );
    },
  );

  it('a MIG instance holds one of its GPU’s instances, a different figure from its compute', () => {
    const tagger = plans.get('tagger')!;
    const perGpu = tagger.sharing.migLayout![tagger.sharing.migProfile!];
    expect(tagger.perReplica.gpuShare).toBeCloseTo(1 / perGpu, 6);
    expect(tagger.perReplica.computeShare).toBeLessThan(
      tagger.perReplica.gpuShare,
    );
    expect(tagger.physicalGpus).toBeCloseTo(3 / perGpu, 4);
  });

  it('the team’s quota use is the sum of its requests’ GPU equivalents', async () => {
    const cards = await Promise.all(
      ['chat-assistant', ...plans.keys()].map(name =>
        get<AllocationResponse>(
          `/allocation?entityRef=component:default/${name}`,
        ),
      ),
    );
    const held = cards.reduce((sum, c) => sum + c.totals.physicalGpus, 0);
    const quota = await get<QuotaUse>(
      `/quota?owner=${encodeURIComponent(OWNER)}&cluster=dev`,
    );
    expect(quota.used).toBeCloseTo(held, 4);
    // 2 × 2 L4 + 3 + 2 slices of ts4 + the MPS, MIG and DRA shares: > 5 GPUs.
    expect(held).toBeGreaterThan(5);
  });
});
