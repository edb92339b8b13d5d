/**
 * Adopting a GPU pool: its NodePool gets the product's annotations (never
 * template labels: a changed template makes Karpenter replace every node) —
 * the request ledger of the workloads the import recognised on it, what the
 * pool is (GPU model, sharing, resource, slices or MIG profile: read by
 * `parsePools` through `findOurLabel`, so the pool needs no config file in the
 * product's layout), and the limit it was given by hand as its floor, so a
 * later request never lowers it (`planner/poolLimits.ts` in gpu-common).
 */
import type { Document } from 'yaml';
import {
  formatLedger,
  gpuAnnotationKeys,
  type LedgerEntry,
  type PoolState,
} from '@gpu-gitops/plugin-gpu-common';

export function adoptionAnnotations(
  pool: PoolState,
  ledger: LedgerEntry[],
  labelDomain: string,
): Record<string, string> {
  const keys = gpuAnnotationKeys(labelDomain);
  const out: Record<string, string> = {
    [keys.requests]: formatLedger(ledger),
    [keys.sharingMode]: pool.sharingMode,
    [keys.resourceName]: pool.resourceName,
  };
  if (pool.gpuModel) out[keys.gpuModel] = pool.gpuModel;
  if (pool.slicesPerGpu !== undefined) {
    out[keys.slicesPerGpu] = String(pool.slicesPerGpu);
  }
  if (pool.migProfile) out[keys.migProfile] = pool.migProfile;
  // In GPUs (`sharing/observedSharing.ts` reads a limit of slices so).
  const floor =
    pool.limitFloor ?? pool.limits?.['nvidia.com/gpu'] ?? pool.limit;
  if (floor !== undefined) out[keys.limitFloor] = String(floor);
  return out;
}

/** Adds the annotations the NodePool does not carry yet; true when it changed. */
export function annotate(
  doc: Document,
  annotations: Record<string, string>,
): boolean {
  let changed = false;
  for (const [key, value] of Object.entries(annotations)) {
    if (doc.getIn(['metadata', 'annotations', key]) !== undefined) continue;
    doc.setIn(['metadata', 'annotations', key], value);
    changed = true;
  }
  return changed;
}

/**
 * The resource a pool's nodes advertise when nothing names it but the
 * physical `nvidia.com/gpu` limit: a time-slicing or MPS config with
 * `renameByDefault: true` advertises `nvidia.com/gpu.shared`
 * (NVIDIA/k8s-device-plugin README, "Shared Access to GPUs"), and
 * under the MIG strategy "mixed" a MIG pool advertises
 * `nvidia.com/mig-<profile>` (same README, "MIG strategies").
 */
export function servedResource(
  pool: PoolState,
  deviceConfig: unknown,
  migStrategy: 'single' | 'mixed',
): string {
  if (pool.resourceName !== 'nvidia.com/gpu') return pool.resourceName;
  if (
    pool.sharingMode === 'mig' &&
    pool.migProfile &&
    migStrategy === 'mixed'
  ) {
    return `nvidia.com/mig-${pool.migProfile}`;
  }
  const sharing = (deviceConfig as { sharing?: Record<string, unknown> })
    ?.sharing;
  const mode = sharing?.timeSlicing ?? sharing?.mps;
  if (
    (pool.sharingMode === 'time-slicing' || pool.sharingMode === 'mps') &&
    (mode as { renameByDefault?: unknown } | undefined)?.renameByDefault ===
      true
  ) {
    return 'nvidia.com/gpu.shared';
  }
  return pool.resourceName;
}
