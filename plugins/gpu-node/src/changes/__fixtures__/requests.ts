/**
 * TEST-ONLY: a GpuRequest as the form files it — owner `ml-platform`,
 * namespace `ml`, on-demand capacity, a new workload named after the request
 * unless one is given — validated by the real request schema.
 */
import {
  parseGpuRequest,
  type GpuRequest,
} from '@gpu-gitops/plugin-gpu-common';

export function mlRequest(
  name: string,
  gpu: Record<string, unknown>,
  options: { cluster?: string; workload?: Record<string, unknown> } = {},
): GpuRequest {
  return parseGpuRequest({
    apiVersion: 'gpu.backstage.io/v1alpha1',
    kind: 'GpuRequest',
    metadata: { name, namespace: 'ml' },
    spec: {
      owner: 'group:default/ml-platform',
      ...(options.cluster ? { cluster: options.cluster } : {}),
      gpu,
      workload: options.workload ?? {
        image: `ghcr.io/example/${name}:1.0.0`,
      },
      capacityTypes: ['on-demand'],
    },
  });
}

/**
 * The same request in every sharing mode, for one cluster: what each
 * provider's on-disk test plans, merges and builds. MIG needs a MIG model
 * the provider's machines carry.
 */
export function everyModeRequests(
  cluster: string,
  migModel: string,
  migVramGiB: number,
): GpuRequest[] {
  const request = (
    name: string,
    sharing: string,
    model: string,
    gpu: Record<string, unknown>,
  ) => mlRequest(name, { model, sharing, ...gpu }, { cluster });
  return [
    request('t4-exclusive', 'exclusive', 't4', { replicas: 2, vramGiB: 12 }),
    request('t4-ts', 'time-slicing', 't4', {
      replicas: 6,
      vramGiB: 3,
      slicesPerGpu: 4,
    }),
    request('t4-mps', 'mps', 't4', { replicas: 3, vramGiB: 3 }),
    request('a100-mig', 'mig', migModel, { replicas: 3, vramGiB: migVramGiB }),
    request('t4-dra', 'dra', 't4', { replicas: 1, vramGiB: 8 }),
  ];
}
