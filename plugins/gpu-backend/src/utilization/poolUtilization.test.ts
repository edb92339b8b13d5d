import type { DeviceUsage } from './deviceUsage';
import { ownerNamesOf } from './podOwner';
import { poolUtilization } from './poolUtilization';

const workloads = [
  { namespace: 'ml', name: 'chat', pool: 'gpu-l4-ts4' },
  { namespace: 'ml', name: 'chat-api', pool: 'gpu-a100-mig' },
  { namespace: 'ml', name: 'trainer', pool: 'gpu-a100-mig' },
];

const prices = new Map([
  // A node of 4 GPUs at $1,000.01: one GPU is 25,000.25 cents.
  ['gpu-l4-ts4', { nodeCents: 100_001, gpusPerNode: 4 }],
  ['gpu-a100-mig', { nodeCents: 2_400_000, gpusPerNode: 8 }],
  ['gpu-empty', undefined],
]);

describe('poolUtilization', () => {
  it('names the workloads a pod can belong to, longest first', () => {
    expect(ownerNamesOf('chat-api-66b9d8c7f4-x2k9q')).toEqual([
      'chat-api-66b9d8c7f4',
      'chat-api',
    ]);
    expect(ownerNamesOf('trainer-0')).toEqual(['trainer']);
    expect(ownerNamesOf('trainer')).toEqual([]);
  });

  it('counts the GPUs the pool’s pods ran on, busy plus idle, and prices the idle ones per GPU', () => {
    const devices: DeviceUsage[] = [
      // Time-sliced L4 with two chat replicas: one GPU, its figure repeated.
      ...['chat-5d8f7c9b6-aaaaa', 'chat-5d8f7c9b6-bbbbb'].map(pod => ({
        host: 'n1',
        gpu: '0',
        uuid: 'GPU-L4-1',
        namespace: 'ml',
        pod,
        vramPeakMiB: 9000,
        vramTotalMiB: 23034,
        active: 0.02,
      })),
      // The same L4 before any pod: still its own series, still idle.
      { host: 'n1', gpu: '0', uuid: 'GPU-L4-1', active: 0, vramPeakMiB: 0 },
      // A MIG A100: chat-api busy on instance 1, trainer idle on instance 2.
      {
        host: 'n2',
        gpu: '0',
        uuid: 'GPU-A100-1',
        migProfile: '3g.40gb',
        migInstance: '1',
        namespace: 'ml',
        pod: 'chat-api-7c9f8d6b5-ccccc',
        vramPeakMiB: 30000,
        vramTotalMiB: 40192,
        active: 0.4,
      },
      {
        host: 'n2',
        gpu: '0',
        uuid: 'GPU-A100-1',
        migProfile: '3g.40gb',
        migInstance: '2',
        namespace: 'ml',
        pod: 'trainer-0',
        vramPeakMiB: 1000,
        vramTotalMiB: 40192,
        active: 0.01,
      },
      // A GPU nobody ran on, and one with pods of two pools: neither counted.
      { host: 'n3', gpu: '0', uuid: 'GPU-X', active: 0 },
      ...['chat-5d8f7c9b6-ddddd', 'trainer-1'].map(pod => ({
        host: 'n4',
        gpu: '0',
        uuid: 'GPU-Y',
        namespace: 'ml',
        pod,
        active: 0,
      })),
    ];
    const figures = poolUtilization(devices, workloads, prices, '7d');
    expect(Object.fromEntries(figures)).toEqual({
      'gpu-l4-ts4': {
        window: '7d',
        gpusSeen: 1,
        busyGpus: 0,
        idleGpus: 1,
        vramUsedMiB: 9000,
        vramTotalMiB: 23034,
        idleUsdPerMonth: 250,
      },
      'gpu-a100-mig': {
        window: '7d',
        gpusSeen: 1,
        busyGpus: 1,
        idleGpus: 0,
        vramUsedMiB: 31000,
        vramTotalMiB: 80384,
        idleUsdPerMonth: 0,
      },
      'gpu-empty': {
        window: '7d',
        gpusSeen: 0,
        busyGpus: 0,
        idleGpus: 0,
        idleUsdPerMonth: 0,
      },
    });
  });
});
