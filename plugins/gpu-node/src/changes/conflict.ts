import { GpuInputError } from '@gpu-gitops/plugin-gpu-common';

/**
 * A named entry already exists with other content. Overwriting it would
 * silently change what other workloads use, so the user must pick another
 * name or reconcile by hand.
 */
export function conflictError(path: string, message: string): GpuInputError {
  return new GpuInputError([{ path, rule: 'conflict', message }]);
}
