import type { QuotaUse } from '@gpu-gitops/plugin-gpu-common';
import { useState } from 'react';
import useAsync from 'react-use/esm/useAsync';
import useDebounce from 'react-use/esm/useDebounce';
import type { GpuApi } from '../api/GpuApi';
import { GpuPlanRejectedError } from '../api/GpuPlanRejectedError';
import {
  localProblems,
  previewRequest,
  type GpuRequestPickerValue,
} from './previewRequest';

/**
 * The live plan preview of the request and the owner's quota beside it. The
 * backend is asked once the user stops typing (`debounceMs`), and never while
 * a box is blank or invalid (`localProblems` say why instead).
 */
export function usePlanPreview(
  gpuApi: GpuApi,
  value: GpuRequestPickerValue,
  otherFields: Record<string, unknown>,
  clusterName: string | undefined,
  owner: string | undefined,
  debounceMs: number,
) {
  const request = previewRequest(value, otherFields);
  // The boxes as typed go into the key too: a blank one is a problem, never
  // the default the request carries in its place.
  const requestKey = JSON.stringify({ request, cluster: clusterName, value });

  const [debouncedKey, setDebouncedKey] = useState(requestKey);
  useDebounce(() => setDebouncedKey(requestKey), debounceMs, [requestKey]);

  const problems = localProblems(value);
  const preview = useAsync(async () => {
    const asked = JSON.parse(debouncedKey);
    if (localProblems(asked.value).length > 0) return undefined;
    return gpuApi.previewPlan(asked.request, { cluster: asked.cluster });
  }, [gpuApi, debouncedKey]);

  // The quota before (or without) a plan: what the owner holds on the cluster.
  const held = useAsync(async () => {
    if (!owner) return undefined;
    return gpuApi.getQuota({
      owner,
      cluster: clusterName,
      namespace: request.metadata.namespace,
      name: request.metadata.name,
    });
  }, [
    gpuApi,
    owner,
    clusterName,
    request.metadata.namespace,
    request.metadata.name,
  ]);
  const rejection =
    preview.error instanceof GpuPlanRejectedError ? preview.error : undefined;
  // Only a named owner has a quota (the preview's stand-in owner has none).
  let quota: QuotaUse | undefined;
  if (owner) {
    quota =
      problems.length === 0
        ? (preview.value?.quota ?? rejection?.quota ?? held.value)
        : held.value;
  }

  return {
    loading: preview.loading || debouncedKey !== requestKey,
    preview: preview.value,
    error: preview.error,
    problems,
    quota,
  };
}
