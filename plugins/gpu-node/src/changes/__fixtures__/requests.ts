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
