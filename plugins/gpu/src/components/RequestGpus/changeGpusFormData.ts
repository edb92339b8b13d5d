import {
  daysUntilExpiry,
  type GpuAllocation,
} from '@gpu-gitops/plugin-gpu-common';

/**
 * The gpu-workload template's form as the stored request filled it, so
 * "Change GPUs" opens the form the developer sent and a re-run updates the
 * same request (its branch and pull request). Field names are the
 * template's (templates/gpu-workload: `gpu` is the GpuRequestPicker's
 * object). Undefined when the repository holds no request for the
 * allocation (a workload found on a pool): there is nothing to change from.
 */
export function changeGpusFormData(
  allocation: GpuAllocation,
  now: Date = new Date(),
): Record<string, unknown> | undefined {
  const spec = allocation.requestSpec;
  if (!spec) return undefined;
  const { gpu, workload } = spec;
  const data: Record<string, unknown> = {
    name: allocation.name,
    namespace: allocation.namespace,
    owner: spec.owner,
    gpu: {
      cluster: spec.cluster ?? allocation.cluster,
      model: gpu.model,
      sharing: gpu.sharing,
      replicas: gpu.replicas,
      vramGiB: gpu.vramGiB,
      gpusPerReplica: gpu.gpusPerReplica,
    },
    capacityTypes: spec.capacityTypes,
  };
  // An experiment keeps its end: the days it has left (at least one).
  const daysLeft = daysUntilExpiry({ spec }, now);
  if (daysLeft !== undefined) data.releaseAfterDays = Math.max(1, daysLeft);
  if (workload.existing) {
    data.workloadType = 'existing';
    data.existingKind = workload.existing.kind;
    data.existingName = workload.existing.name;
    if (workload.existing.container) {
      data.existingContainer = workload.existing.container;
    }
  } else {
    data.workloadType = 'new';
    if (workload.image) data.image = workload.image;
  }
  return data;
}
