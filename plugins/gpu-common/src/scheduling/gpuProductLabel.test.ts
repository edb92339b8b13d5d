import { gpuProductLabelValues } from './gpuProductLabel';

describe('the nvidia.com/gpu.product value GPU Feature Discovery gives a model', () => {
  it('turns the NVML name into a label value, one per board variant', () => {
    expect(gpuProductLabelValues('t4')).toEqual(['Tesla-T4']);
    expect(gpuProductLabelValues('a100-80gb')).toEqual([
      'NVIDIA-A100-SXM4-80GB',
      'NVIDIA-A100-80GB-PCIe',
    ]);
    expect(gpuProductLabelValues('h100-80gb')).toContain(
      'NVIDIA-H100-80GB-HBM3',
    );
  });

  it('appends the MIG profile under the single strategy and SHARED for an unrenamed shared resource', () => {
    expect(
      gpuProductLabelValues('a100-40gb', {
        singleStrategyMigProfile: '1g.5gb',
      }),
    ).toEqual([
      'NVIDIA-A100-SXM4-40GB-MIG-1g.5gb',
      'NVIDIA-A100-PCIE-40GB-MIG-1g.5gb',
    ]);
    expect(gpuProductLabelValues('l4', { sharedUnrenamed: true })).toEqual([
      'NVIDIA-L4-SHARED',
    ]);
  });

  it('knows no value for a model the catalog has no NVML name for', () => {
    expect(gpuProductLabelValues('acme-gpu-9000')).toBeUndefined();
  });
});
