import { gpuContainerPatch } from './gpuContainerPatch';
import type { PodPlacement } from './podPlacement';

const shared: PodPlacement = {
  nodeSelector: {},
  tolerations: [],
  annotations: {},
  limits: { 'nvidia.com/gpu.shared': '1' },
};

describe('gpuContainerPatch', () => {
  it('sets the plan’s limit and deletes the container’s other NVIDIA resources, nothing else', () => {
    const own = {
      name: 'api',
      limits: { cpu: '2', 'nvidia.com/gpu': '1' },
      requests: { cpu: '1', 'nvidia.com/gpu': '1' },
    };
    expect(gpuContainerPatch(own, 'api', undefined, shared, false)).toEqual({
      name: 'api',
      resources: {
        limits: { 'nvidia.com/gpu': null, 'nvidia.com/gpu.shared': '1' },
        requests: { 'nvidia.com/gpu': null },
      },
    });
  });

  it('makes an NVIDIA request equal to the plan’s limit, as Kubernetes requires', () => {
    const own = {
      name: 'api',
      limits: { 'nvidia.com/gpu.shared': '2' },
      requests: { 'nvidia.com/gpu.shared': '2' },
    };
    expect(
      gpuContainerPatch(own, 'api', undefined, shared, false).resources,
    ).toEqual({
      limits: { 'nvidia.com/gpu.shared': '1' },
      requests: { 'nvidia.com/gpu.shared': '1' },
    });
  });

  it('sets the image only when it changes', () => {
    const own = { name: 'api', image: 'llm:1', limits: {}, requests: {} };
    expect(
      gpuContainerPatch(own, 'api', 'llm:1', shared, false),
    ).not.toHaveProperty('image');
    expect(gpuContainerPatch(own, 'api', 'llm:2', shared, false).image).toBe(
      'llm:2',
    );
  });

  it('claims the request’s DRA device after the container’s own claims', () => {
    const own = {
      name: 'api',
      limits: { 'nvidia.com/gpu': '1' },
      requests: {},
      claims: [{ name: 'scratch' }],
    };
    const dra = { ...shared, limits: {} };
    expect(
      gpuContainerPatch(own, 'api', undefined, dra, true).resources,
    ).toEqual({
      limits: { 'nvidia.com/gpu': null },
      claims: [{ name: 'scratch' }, { name: 'gpu', request: 'gpu' }],
    });
  });
});
