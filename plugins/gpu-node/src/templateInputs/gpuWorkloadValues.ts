/**
 * What the gpu-workload form sends for every field a person leaves alone:
 * the defaults in the scaffolder module's templates/gpu-workload/template.yaml
 * (its templates test keeps the two equal). Name, owner and image have none.
 *
 * @public
 */
export const GPU_WORKLOAD_DEFAULTS = {
  namespace: 'ml',
  catalogInfoUrl: '',
  cluster: '',
  model: 'auto',
  sharing: 'exclusive',
  replicas: 1,
  vramGiB: 8,
  gpusPerReplica: 1,
  capacityTypes: ['on-demand'],
  workloadType: 'new',
};

/**
 * What the form adds when the Workload step names an existing workload: the
 * defaults of that branch of template.yaml (`dependencies.workloadType`,
 * `const: existing`), which the form fills only once it is chosen.
 * `existingContainer` stays empty until the GpuWorkloadContainerPicker
 * chooses one (the actions then take the workload's only container).
 *
 * @public
 */
export const EXISTING_WORKLOAD_DEFAULTS = {
  existingKind: 'Deployment',
  existingContainer: '',
};

/**
 * The `values` of a gpu-workload template task, as the form sends them: the
 * GPU part is the GpuRequestPicker field's object under `gpu`, every other
 * key is a page field, and what `flat` leaves out takes the form's default.
 * For scripts and tests that start tasks through the scaffolder REST API
 * from a flat description of the request.
 *
 * @public
 */
export function gpuWorkloadValues(
  flat: Record<string, unknown>,
): Record<string, unknown> {
  const existing =
    { ...GPU_WORKLOAD_DEFAULTS, ...flat }.workloadType === 'existing';
  const {
    cluster,
    model,
    sharing,
    replicas,
    vramGiB,
    gpusPerReplica,
    ...rest
  } = {
    ...GPU_WORKLOAD_DEFAULTS,
    ...(existing ? EXISTING_WORKLOAD_DEFAULTS : {}),
    ...flat,
  };
  return {
    ...rest,
    gpu: { cluster, model, sharing, replicas, vramGiB, gpusPerReplica },
  };
}
