/**
 * What a GPU node advertises under the GPU Operator's default config: NVIDIA's
 * "Time-Slicing GPUs in Kubernetes" recipe (gpu-operator docs) names a key of
 * `time-slicing-config` in `devicePlugin.config.default`, and every node
 * without a `nvidia.com/device-plugin.config` label runs it.
 */
import type { ClusterGpuStack } from '../cluster/gpuStack';
import { advertisedResources } from './advertisedResources';
import { operatorDefaultConfigOn } from './operatorDefaultConfig';

/** The recipe's `any` key: 4 time slices of each GPU, as `nvidia.com/gpu`. */
const FOUR_SLICES = {
  version: 'v1',
  flags: { migStrategy: 'none' },
  sharing: {
    timeSlicing: { resources: [{ name: 'nvidia.com/gpu', replicas: 4 }] },
  },
};

const stack: ClusterGpuStack = {
  operatorSharesByDefault: {
    file: 'clusters/prod/gpu-operator/release.yaml',
    setting: '`devicePlugin.config.default: any` in values.yaml',
    sharing: 'time-slicing, 4 per GPU, as `nvidia.com/gpu`',
    config: { key: 'any', content: FOUR_SLICES },
  },
};

const advertisedOn = (labels: Record<string, string>, on = stack) =>
  advertisedResources(
    operatorDefaultConfigOn(labels, on)?.content,
    undefined,
    'single',
  );

describe('operatorDefaultConfigOn', () => {
  it('gives an unlabelled node the default config: 4 nvidia.com/gpu per GPU, not whole GPUs', () => {
    expect(operatorDefaultConfigOn({}, stack)?.key).toBe('any');
    expect(advertisedOn({ 'karpenter.sh/nodepool': 'nvidia-gpu' })).toEqual([
      { resource: 'nvidia.com/gpu', perGpu: 4 },
    ]);
  });

  it('leaves a node that selects a config by label to that config', () => {
    expect(
      operatorDefaultConfigOn(
        { 'nvidia.com/device-plugin.config': 'ts-2' },
        stack,
      ),
    ).toBeUndefined();
  });

  it('gives whole GPUs when the repository holds no sharing default', () => {
    expect(advertisedOn({}, {})).toEqual([
      { resource: 'nvidia.com/gpu', perGpu: 1 },
    ]);
  });
});
