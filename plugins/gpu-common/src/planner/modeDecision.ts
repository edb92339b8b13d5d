import { formatGiB, MIB_PER_GIB } from '../format/units';
import type { PlanDecision, SharingPlan } from './types';

/**
 * What one sharing mode decides for one GPU model: the resource pods ask for,
 * how many units a GPU offers, what memory a replica gets. `plan()` turns it
 * into pools, nodes and cost; the sharing-*.ts files produce it.
 */
export interface ModeDecision {
  sharing: SharingPlan;
  resourceName: string;
  resourcePerReplica: number;
  /** Units of `resourceName` one physical GPU offers (1 for whole GPUs). */
  unitsPerGpu: number;
  /** Smallest GPU count per node that can hold one replica. */
  minGpusPerNode: number;
  vramGuaranteed: boolean;
  memoryMiB: number;
  /**
   * Physical GPUs one replica holds, e.g. 0.25 or 2: what its quota and its
   * cost count, and the "share of a GPU" every page shows.
   */
  gpuShare: number;
  /**
   * MIG only: the part of a GPU's compute (SMs) the replica's instance runs
   * on, which differs from what it holds (1g.10gb on an A100 40GB: 1/7 of
   * the compute, one of the GPU's 4 instances).
   */
  computeShare?: number;
  /** Appended to `gpu-<model>` for the pool name, e.g. `-ts4`. */
  poolSuffix: string;
  /** NodePool template labels the mode needs (device-plugin / MIG config). */
  modeLabels: Record<string, string>;
  warnings: string[];
  explanation: string[];
  /** The slicing chosen and why (`Plan.decisions.sharing`). */
  decision: PlanDecision;
}

export { MIB_PER_GIB };

/**
 * The resource of whole GPUs, the one Karpenter knows from the instance
 * types (every other GPU resource needs a NodeOverlay).
 *
 * @public
 */
export const WHOLE_GPU_RESOURCE = 'nvidia.com/gpu';
export const SHARED_GPU_RESOURCE = 'nvidia.com/gpu.shared';

/** MiB as every place shows memory (format/units.ts). */
export const gib = formatGiB;

/** A request's VRAM per replica in MiB. */
export function requestedMiB(vramGiB: number): number {
  return vramGiB * MIB_PER_GIB;
}
