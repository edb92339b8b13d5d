/**
 * How GPU memory and GPU shares read everywhere the product shows them (the
 * card, the tab, the PR body, the preview, the CLI): one unit per quantity.
 */

export const MIB_PER_GIB = 1024;

/**
 * `12.5 GiB` from MiB: always GiB, always one decimal, rounded DOWN so no
 * place promises more memory than there is (a T4 time slice of 3840 MiB is
 * `3.7 GiB`, never `3.8 GiB`).
 *
 * @public
 */
export function formatGiB(mib: number): string {
  // The epsilon keeps binary noise (4096 MiB as 3.9999…) from losing a tenth.
  const tenths = Math.floor((mib / MIB_PER_GIB) * 10 + 1e-9);
  return `${(tenths / 10).toFixed(1)} GiB`;
}

/**
 *  A request's `vramGiB`, formatted like every other memory figure.
 *
 * @public
 */
export function formatRequestedGiB(vramGiB: number): string {
  return formatGiB(vramGiB * MIB_PER_GIB);
}

/**
 * A share of physical GPUs: `25% of a GPU` below one GPU (one decimal at
 * most: `42.9% of a GPU`), else `1 GPU` / `2 GPUs`.
 *
 * @public
 */
export function formatGpuShare(share: number): string {
  if (share < 1) {
    const percent = Math.round(share * 1000) / 10;
    return `${percent}% of a GPU`;
  }
  const gpus = Math.round(share * 100) / 100;
  return gpus === 1 ? '1 GPU' : `${gpus} GPUs`;
}

/**
 * MIG divides a GPU's SMs into at most 7 compute slices (NVIDIA MIG User
 * Guide, "Supported MIG Profiles": A100, H100, H200, B200 have 7, A30 has 4),
 * so a compute share is a fraction with a small denominator.
 */
const MAX_COMPUTE_SLICES = 7;

/**
 * A MIG compute share in words: the fraction of a GPU's compute slices it is
 * (`1/7 of its compute`, `all of its compute`, `8/7 of a GPU's compute` for
 * instances on several GPUs), or a percent when it is no such fraction.
 */
export function formatComputeShare(share: number): string {
  // Shares travel rounded to 6 decimals (the plan, the allocation API).
  const near = (a: number, b: number) => Math.abs(a - b) < 1e-6;
  if (near(share, 1)) return 'all of its compute';
  if (share > 1 && near(share, Math.round(share))) {
    return `the compute of ${Math.round(share)} GPUs`;
  }
  const of = share < 1 ? 'of its compute' : "of a GPU's compute";
  for (let slices = 2; slices <= MAX_COMPUTE_SLICES; slices++) {
    const used = Math.round(share * slices);
    if (used > 0 && near(used / slices, share)) {
      return `${used}/${slices} ${of}`;
    }
  }
  return `${Math.round(share * 1000) / 10}% ${of}`;
}

/**
 * What one replica holds of a GPU, as the card, the tab, the preview, the PR
 * body and the CLI show it: the share its quota and cost count (so replicas
 * × this share = the request's GPU equivalents), and for MIG, beside it, the
 * part of the GPU's compute its instance runs on — a different figure (a
 * 1g.10gb instance of an A100 40GB holds one of the 4 instances of its GPU,
 * 25%, and runs on 1/7 of its SMs): `25% of a GPU · 1/7 of its compute`.
 *
 * @public
 */
export function formatReplicaGpuShare(perReplica: {
  gpuShare: number;
  computeShare?: number;
}): string {
  const held = formatGpuShare(perReplica.gpuShare);
  if (perReplica.computeShare === undefined) return held;
  return `${held} · ${formatComputeShare(perReplica.computeShare)}`;
}
