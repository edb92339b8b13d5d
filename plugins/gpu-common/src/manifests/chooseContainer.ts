import { GpuInputError } from '../errors';
import type { WorkloadKind } from '../request/types';

/**
 *  What choosing the GPU container needs to know of a workload.
 *
 * @public
 */
export interface ContainerChoiceWorkload {
  kind: WorkloadKind;
  name: string;
  containers: readonly { name: string }[];
}

/**
 * The container of an existing workload that gets the GPU: the one the
 * request names (`spec.workload.existing.container`), or the only one.
 * Refuses, naming the field and listing the containers, when the named one
 * is not there (`container-not-found`) or several are there and none is
 * named (`container-required`). One rule for the actions and the CLI
 * (gpu-node, on the workload kustomize builds) and the backend's plan
 * preview (on the allocation index), so both refuse with the same words.
 *
 * @public
 */
export function chooseContainer(
  workload: ContainerChoiceWorkload,
  requested: string | undefined,
): string {
  const names = workload.containers.map(c => c.name);
  const what = `${workload.kind} "${workload.name}"`;
  if (requested !== undefined) {
    if (names.includes(requested)) return requested;
    throw new GpuInputError([
      {
        path: 'spec.workload.existing.container',
        rule: 'container-not-found',
        message: `${what} has no container "${requested}"; its containers: ${names.join(', ')}`,
      },
    ]);
  }
  if (names.length === 1) return names[0];
  throw new GpuInputError([
    {
      path: 'spec.workload.existing.container',
      rule: 'container-required',
      message: `${what} has ${names.length} containers (${names.join(', ')}): name the one that gets the GPU`,
    },
  ]);
}
