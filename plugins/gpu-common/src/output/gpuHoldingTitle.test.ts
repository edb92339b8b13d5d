import { gpuHoldingTitle } from './gpuHoldingTitle';

describe('gpuHoldingTitle', () => {
  it.each([
    [
      'time-slices of one T4',
      {
        replicas: 2,
        unitsPerReplica: 1,
        gpuSharePerReplica: 0.25,
        sharingMode: 'time-slicing',
        modelName: 'NVIDIA Tesla T4',
      },
      '0.5 GPU — 2 time-slices of a T4',
    ],
    [
      'MIG instances of one A100',
      {
        replicas: 3,
        unitsPerReplica: 1,
        gpuSharePerReplica: 0.25,
        sharingMode: 'mig',
        migProfile: '1g.5gb',
        modelName: 'NVIDIA A100 40GB',
      },
      '0.75 GPU — 3 MIG 1g.5gb of an A100 40GB',
    ],
    [
      'whole GPUs',
      {
        replicas: 2,
        unitsPerReplica: 1,
        gpuSharePerReplica: 1,
        sharingMode: 'exclusive',
        modelName: 'NVIDIA L4',
      },
      '2 GPUs — 2 whole L4s',
    ],
    [
      'one whole GPU',
      {
        replicas: 1,
        unitsPerReplica: 1,
        gpuSharePerReplica: 1,
        sharingMode: 'exclusive',
        modelName: 'NVIDIA L4',
      },
      '1 GPU — 1 whole L4',
    ],
    [
      'MPS shares over several GPUs',
      {
        replicas: 8,
        unitsPerReplica: 1,
        gpuSharePerReplica: 0.25,
        sharingMode: 'mps',
        modelName: 'NVIDIA Tesla T4',
      },
      '2 GPUs — 8 MPS shares of T4s',
    ],
    [
      'a DRA claim',
      {
        replicas: 1,
        unitsPerReplica: 1,
        gpuSharePerReplica: 1,
        sharingMode: 'dra',
        modelName: 'NVIDIA H100 80GB',
      },
      '1 GPU — 1 whole H100 80GB, claimed through DRA',
    ],
    [
      'DRA claims of consumable shares',
      {
        replicas: 8,
        unitsPerReplica: 1,
        gpuSharePerReplica: 0.25,
        sharingMode: 'dra',
        modelName: 'NVIDIA L4',
      },
      '2 GPUs — 8 DRA shares of L4s',
    ],
  ] as const)('%s', (_case, holding, title) => {
    expect(gpuHoldingTitle(holding)).toBe(title);
  });
});
