import { GpuInputError } from '@gpu-gitops/plugin-gpu-common';

/** The request fields an existing-workload refusal names. */
export const existingWorkloadField = {
  name: 'spec.workload.existing.name',
  kind: 'spec.workload.existing.kind',
};

/** Refuses the request: nothing is written. */
export function refuse(path: string, rule: string, message: string): never {
  throw new GpuInputError([{ path, rule, message }]);
}
