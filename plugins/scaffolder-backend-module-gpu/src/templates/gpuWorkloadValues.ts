/**
 * The `values` of a gpu-workload template task, as the form sends them: the
 * GPU part is the GpuRequestPicker field's object under `gpu`, every other
 * key is a page field. For scripts and tests that start tasks through the
 * scaffolder REST API from a flat description of the request.
 */
export function gpuWorkloadValues(
  flat: Record<string, unknown>,
): Record<string, unknown> {
  const { model, sharing, replicas, vramGiB, gpusPerReplica, ...rest } = flat;
  return {
    ...rest,
    gpu: { model, sharing, replicas, vramGiB, gpusPerReplica },
  };
}
