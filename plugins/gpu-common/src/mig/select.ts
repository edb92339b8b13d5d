import type { GpuModel, MigProfile } from '../catalog/types';
import { GpuInputError } from '../errors';
import { isPlainMigProfile } from './profileName';

const MIB_PER_GIB = 1024;

/**
 * The smallest plain MIG profile (no `+me`, `-me`, `+gfx` attributes) whose
 * REAL memory holds `vramGiB`: smallest by memory, then by compute slices.
 * Undefined when the model has no MIG or no profile is large enough.
 */
export function smallestMigProfileFor(
  model: GpuModel,
  vramGiB: number,
): MigProfile | undefined {
  const needMiB = vramGiB * MIB_PER_GIB;
  return (model.mig?.profiles ?? [])
    .filter(p => isPlainMigProfile(p.name) && p.memoryMiB >= needMiB)
    .sort(
      (a, b) => a.memoryMiB - b.memoryMiB || a.computeSlices - b.computeSlices,
    )[0];
}

/**
 * The layout that fills one GPU with a single profile, as NVIDIA's `all-<profile>`
 * configs do: `{ [profileName]: maxCount }`. Throws `GpuInputError` when the
 * model has no MIG or no such profile (the caller passed a user's choice).
 */
export function uniformMigLayout(
  model: GpuModel,
  profileName: string,
): Record<string, number> {
  const profile = model.mig?.profiles.find(p => p.name === profileName);
  if (!profile) {
    const known = model.mig?.profiles.map(p => p.name).join(', ');
    throw new GpuInputError([
      {
        path: 'mig.profile',
        rule: model.mig ? 'unknown-mig-profile' : 'mig-unsupported',
        message: model.mig
          ? `${profileName} is not a MIG profile of ${model.id}; use one of ${known}`
          : `${model.id} does not support MIG`,
      },
    ]);
  }
  return { [profile.name]: profile.maxCount };
}
