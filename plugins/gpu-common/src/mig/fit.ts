import type { GpuModel, MigProfile } from '../catalog/types';
import { GpuInputError } from '../errors';
import { packMigInstances, type MigPlacement } from './pack';
import { claimsMediaEngines } from './profileName';

export type { MigPlacement } from './pack';

/** @public */
export type MigFitResult =
  { fits: true; placement: MigPlacement[] } | { fits: false; reason: string };

/**
 * Does this mix of MIG instances fit ONE GPU of `model`? Exact, by NVIDIA's
 * placement table (the start slots `nvidia-smi mig -lgipp` lists; NVML
 * `nvmlDeviceGetGpuInstancePossiblePlacements_v2`,
 * https://docs.nvidia.com/deploy/nvml-api/group__nvmlMultiInstanceGPU.html):
 *   1. every profile exists on the model and its count ≤ its max count;
 *   2. at most one instance claims the media engines (`+me`, `+me.all`);
 *   3. the compute slices add up to at most the GPU's total (7 or 4);
 *   4. a backtracking search assigns every instance an allowed start slot so
 *      that no two `[start, start + memorySlices)` intervals overlap.
 * mig-parted retries every creation order over NVML auto-placement, so a mix
 * with such an assignment is one mig-parted can really apply.
 *
 * A layout that cannot be placed is an answer, not an input error: a model
 * without MIG, an unknown profile or an impossible mix return
 * `{ fits: false, reason }` so the planner can show the reason. Only a count
 * that is not a non-negative integer throws `GpuInputError`. Zero counts are
 * ignored; an empty layout fits (MIG enabled, no instances).
 *
 * @public
 */
export function fitMig(
  model: GpuModel,
  counts: Record<string, number>,
): MigFitResult {
  const issues = Object.entries(counts)
    .filter(([, count]) => !Number.isInteger(count) || count < 0)
    .map(([profile, count]) => ({
      path: `counts.${profile}`,
      rule: 'non-negative-integer',
      message: `MIG instance count for ${profile} must be a non-negative integer, got ${count}`,
    }));
  if (issues.length > 0) throw new GpuInputError(issues);

  const geometry = model.mig;
  if (!geometry) {
    return {
      fits: false,
      reason: `${model.id} (${model.displayName}) does not support MIG`,
    };
  }

  const wanted = Object.entries(counts).filter(([, count]) => count > 0);
  const byName = new Map(geometry.profiles.map(p => [p.name, p]));
  const unknown = wanted.map(([name]) => name).filter(n => !byName.has(n));
  if (unknown.length > 0) {
    return {
      fits: false,
      reason: `unknown MIG profile${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')} for ${model.id}; its profiles are ${geometry.profiles.map(p => p.name).join(', ')}`,
    };
  }

  const instances: MigProfile[] = [];
  for (const [name, count] of wanted) {
    const profile = byName.get(name)!;
    if (count > profile.maxCount) {
      return {
        fits: false,
        reason: `${count} x ${name} exceeds the maximum of ${profile.maxCount} per ${model.id} GPU`,
      };
    }
    for (let i = 0; i < count; i++) instances.push(profile);
  }

  const mediaInstances = instances.filter(p => claimsMediaEngines(p.name));
  if (mediaInstances.length > 1) {
    return {
      fits: false,
      reason: `${mediaInstances.length} instances claim the media engines (${[...new Set(mediaInstances.map(p => p.name))].join(', ')}); a GPU allows at most one`,
    };
  }

  const computeSlices = instances.reduce((sum, p) => sum + p.computeSlices, 0);
  if (computeSlices > geometry.computeSlices) {
    return {
      fits: false,
      reason: `the mix needs ${computeSlices} compute slices but one ${model.id} GPU has ${geometry.computeSlices}`,
    };
  }

  const packed = packMigInstances(geometry.memorySlices, instances);
  if (!packed.packed) {
    const { profile, instance } = packed.stuck;
    const starts = byName.get(profile)!.startSlots.join(', ');
    return {
      fits: false,
      reason: `no free start slot for instance ${instance} of profile ${profile} (allowed starts ${starts}) once the larger instances are placed: NVIDIA's MIG placements forbid this mix on ${model.id}`,
    };
  }
  return { fits: true, placement: packed.placement };
}
