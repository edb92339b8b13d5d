import { poolGpuProducts } from './poolGpuProducts';

describe('the GPU product label of a pool’s nodes, from what the pool is', () => {
  const a100Mig = {
    gpuModel: 'a100-40gb',
    sharingMode: 'mig' as const,
    migProfile: '1g.5gb',
    resourceName: 'nvidia.com/gpu',
  };

  it('ends a MIG pool’s label in its profile under the single strategy only, either form when the strategy is not known', () => {
    expect(poolGpuProducts(a100Mig, 'single')).toEqual([
      'NVIDIA-A100-SXM4-40GB-MIG-1g.5gb',
      'NVIDIA-A100-PCIE-40GB-MIG-1g.5gb',
    ]);
    expect(poolGpuProducts(a100Mig, 'mixed')).toEqual([
      'NVIDIA-A100-SXM4-40GB',
      'NVIDIA-A100-PCIE-40GB',
    ]);
    expect(poolGpuProducts(a100Mig, undefined)).toEqual([
      'NVIDIA-A100-SXM4-40GB',
      'NVIDIA-A100-PCIE-40GB',
      'NVIDIA-A100-SXM4-40GB-MIG-1g.5gb',
      'NVIDIA-A100-PCIE-40GB-MIG-1g.5gb',
    ]);
  });

  it('marks slices shared under the unrenamed resource, not one slice or a renamed one', () => {
    const t4 = { gpuModel: 't4', resourceName: 'nvidia.com/gpu' };
    expect(
      poolGpuProducts({ ...t4, sharingMode: 'mps', slicesPerGpu: 2 }, 'mixed'),
    ).toEqual(['Tesla-T4-SHARED']);
    expect(
      poolGpuProducts(
        { ...t4, sharingMode: 'time-slicing', slicesPerGpu: 1 },
        'mixed',
      ),
    ).toEqual(['Tesla-T4']);
    expect(
      poolGpuProducts(
        {
          ...t4,
          sharingMode: 'time-slicing',
          slicesPerGpu: 4,
          resourceName: 'nvidia.com/gpu.shared',
        },
        'mixed',
      ),
    ).toEqual(['Tesla-T4']);
  });

  it('knows no label for a pool without a model, or of a model without NVML names', () => {
    expect(
      poolGpuProducts(
        { sharingMode: 'exclusive', resourceName: 'nvidia.com/gpu' },
        'mixed',
      ),
    ).toBeUndefined();
    expect(
      poolGpuProducts(
        {
          gpuModel: 'acme-9000',
          sharingMode: 'exclusive',
          resourceName: 'nvidia.com/gpu',
        },
        'mixed',
      ),
    ).toBeUndefined();
  });
});
