import { createServer } from 'node:http';
import type { GpuAllocation } from '@gpu-gitops/plugin-gpu-common';
import { dcgmHistory, type DcgmDevice } from '../__testUtils__/dcgmExporter';
import {
  startPrometheus,
  type PrometheusServer,
} from '../__testUtils__/prometheusServer';
import { LiveData } from './liveData';

jest.setTimeout(120_000);

const T4 = { modelName: 'Tesla T4', fbTotalMiB: 15360 };
const WEEK = 168;
// History ends on the last full hour; queries are asked at that time.
const end = Math.floor(Date.now() / 3_600_000) * 3600 - 3600;

const devices: DcgmDevice[] = [
  {
    // An exclusive GPU, used lightly: peak 3 GiB of 15 GiB, 8 % busy.
    host: 'ip-10-0-1-7',
    gpu: '0',
    uuid: 'GPU-trainer',
    ...T4,
    pod: {
      namespace: 'ml',
      name: 'trainer-7d9c5b6f4-x2k9q',
      container: 'train',
    },
    fbUsedMiB: hour => (hour === 100 ? 3072 : 2800),
    engineActive: () => 0.08,
    // The example: SM activity 8 %, where the exporter has it.
    smActive: () => 0.08,
    gpuUtil: () => 8,
  },
  {
    // An exclusive GPU nobody uses.
    host: 'ip-10-0-1-8',
    gpu: '0',
    uuid: 'GPU-notebook',
    ...T4,
    pod: { namespace: 'ml', name: 'notebook-0', container: 'jupyter' },
    fbUsedMiB: () => 300,
    engineActive: () => 0.01,
    gpuUtil: () => 1,
  },
  {
    // A MIG instance whose pod uses more than the plan gave a replica.
    host: 'ip-10-0-2-3',
    gpu: '0',
    uuid: 'GPU-a100',
    modelName: 'NVIDIA A100-SXM4-80GB',
    migProfile: '1g.10gb',
    migId: '7',
    fbTotalMiB: 9728,
    pod: {
      namespace: 'ml',
      name: 'vision-5c4f7d8b9-abcde',
      container: 'infer',
    },
    fbUsedMiB: hour => 9000 + (hour % 10) * 50,
    engineActive: () => 0.6,
  },
  // A time-sliced T4 the exporter maps to two replicas of `chat` (virtual
  // GPUs: the same device-level numbers once per replica).
  ...['q1w2e', 'r3t4y'].map((suffix): DcgmDevice => ({
    host: 'ip-10-0-3-1',
    gpu: '0',
    uuid: 'GPU-shared',
    ...T4,
    pod: {
      namespace: 'ml',
      name: `chat-6b8d9c7f5-${suffix}`,
      container: 'chat',
    },
    fbUsedMiB: () => 11000,
    engineActive: () => 0.45,
    gpuUtil: () => 45,
  })),
  // `chat-api`'s pod must never count for `chat`.
  {
    host: 'ip-10-0-3-2',
    gpu: '0',
    uuid: 'GPU-chat-api',
    ...T4,
    pod: {
      namespace: 'ml',
      name: 'chat-api-7f8d6c5b4-zzzzz',
      container: 'api',
    },
    fbUsedMiB: () => 15000,
    engineActive: () => 0.99,
  },
];

const allocation = (
  name: string,
  sharingMode: GpuAllocation['sharingMode'],
  vramMiBPerReplica: number,
) =>
  ({
    id: `ml/${name}`,
    namespace: 'ml',
    name,
    cluster: 'dev',
    sharingMode,
    vramMiBPerReplica,
  }) as GpuAllocation;

describe('LiveData against a real Prometheus holding a week of DCGM exporter history', () => {
  let prometheus: PrometheusServer;
  let live: LiveData;
  let statuses: Awaited<ReturnType<LiveData['refresh']>>;
  beforeAll(async () => {
    prometheus = await startPrometheus({
      history: dcgmHistory(devices, WEEK, end),
    });
    live = new LiveData(
      {
        window: '7d',
        refresh: { minutes: 5 },
        targets: [
          { cluster: 'dev', baseUrl: prometheus.baseUrl, timeoutMs: 10_000 },
        ],
      },
      () => new Date(end * 1000),
    );
    statuses = await live.refresh();
  });
  afterAll(async () => {
    await prometheus?.stop();
  });

  it('attributes exclusive GPUs per pod: VRAM p95 and peak against what a replica holds, activity, idle hours', () => {
    expect(statuses).toEqual([
      {
        cluster: 'dev',
        source: 'prometheus',
        available: true,
        at: new Date(end * 1000).toISOString(),
      },
    ]);
    expect(
      live.utilizationOf(allocation('trainer', 'exclusive', 15360)),
    ).toEqual({
      attribution: 'per-pod',
      window: '7d',
      sources: 1,
      vramP95MiB: 2800,
      vramPeakMiB: 3072,
      vramAllottedMiB: 15360,
      active: 0.08,
      smActive: 0.08,
      idleHours: 0,
      status: 'ok',
      reason: 'figures of its own pods',
    });
    // No SM series for it: no figure, not a zero.
    expect(
      live.utilizationOf(allocation('notebook', 'exclusive', 15360))?.smActive,
    ).toBeUndefined();
    expect(
      live.utilizationOf(allocation('notebook', 'exclusive', 15360)),
    ).toMatchObject({
      attribution: 'per-pod',
      vramPeakMiB: 300,
      active: 0.01,
      idleHours: WEEK,
      status: 'idle',
      reason: 'engine active 1.0 % on average over 7d',
    });
  });

  it('reads MIG instances per pod, and flags a replica above what it was given', () => {
    expect(live.utilizationOf(allocation('vision', 'mig', 9216))).toMatchObject(
      {
        attribution: 'per-pod',
        sources: 1,
        vramPeakMiB: 9450,
        active: 0.6,
        status: 'oversubscribed',
        reason: 'peak VRAM 9450 MiB is above the 9216 MiB a replica was given',
      },
    );
  });

  it("shows time-sliced GPUs per GPU, never split by a guess, and never another workload's pods", () => {
    expect(
      live.utilizationOf(allocation('chat', 'time-slicing', 3840)),
    ).toEqual({
      attribution: 'per-gpu',
      window: '7d',
      sources: 1,
      vramP95MiB: 11000,
      vramPeakMiB: 11000,
      vramAllottedMiB: 3840,
      active: 0.45,
      idleHours: 0,
      status: 'ok',
      reason:
        'figures of the whole GPUs its replicas share with the pool (not split per replica)',
    });
    expect(
      live.utilizationOf(allocation('batch', 'exclusive', 15360)),
    ).toMatchObject({
      attribution: 'none',
      sources: 0,
      status: 'no-data',
    });
  });
});

describe('LiveData without a Prometheus', () => {
  it('says why per cluster (unreachable, timed out), and gives no figures', async () => {
    const silent = createServer(() => undefined);
    await new Promise<void>(resolve => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as { port: number };
    try {
      const live = new LiveData({
        window: '7d',
        refresh: { minutes: 5 },
        targets: [
          { cluster: 'dev', baseUrl: 'http://127.0.0.1:9', timeoutMs: 2000 },
          {
            cluster: 'prod',
            baseUrl: `http://127.0.0.1:${port}`,
            timeoutMs: 1000,
          },
        ],
      });
      const statuses = await live.refresh();
      expect(statuses).toEqual([
        {
          cluster: 'dev',
          source: 'prometheus',
          available: false,
          reason: expect.stringMatching(
            /^Prometheus at 127\.0\.0\.1:9 cannot be reached/,
          ),
        },
        {
          cluster: 'prod',
          source: 'prometheus',
          available: false,
          reason: `Prometheus at 127.0.0.1:${port} did not answer within 1 s`,
        },
      ]);
      expect(
        live.utilizationOf(allocation('trainer', 'exclusive', 15360)),
      ).toBeUndefined();
    } finally {
      silent.closeAllConnections();
      await new Promise(resolve => silent.close(resolve));
    }
  });
});
