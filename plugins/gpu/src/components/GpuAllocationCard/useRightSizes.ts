import { useApi } from '@backstage/core-plugin-api';
import type {
  GpuAllocation,
  RightSizeSuggestion,
} from '@gpu-gitops/plugin-gpu-common';
import useAsync from 'react-use/esm/useAsync';
import { gpuApiRef } from '../../api/GpuApi';

/**
 * The right-size suggestion of each allocation, once it comes. Suggestions
 * run the planner: asked after the allocation is shown, only when a
 * request's own pods were measured, and shown when they come.
 */
export function useRightSizes(
  entityRef: string,
  allocations: GpuAllocation[],
): (allocation: GpuAllocation) => RightSizeSuggestion | undefined {
  const gpuApi = useApi(gpuApiRef);
  const measured = allocations.some(
    a => a.utilization?.attribution === 'per-pod',
  );
  const { value: rightSizes } = useAsync(
    async () => (measured ? gpuApi.getRightSize(entityRef) : undefined),
    [gpuApi, entityRef, measured],
  );
  return a =>
    rightSizes?.suggestions.find(s => s.id === a.id && s.cluster === a.cluster)
      ?.suggestion;
}
