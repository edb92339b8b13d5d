/**
 * How GPU memory and GPU shares read everywhere the product shows them (the
 * card, the tab, the PR body, the preview, the CLI): one unit per quantity.
 */

export const MIB_PER_GIB = 1024;

/**
 * `12.5 GiB` from MiB: always GiB, always one decimal, rounded DOWN so no
 * place promises more memory than there is (a T4 time slice of 3840 MiB is
 * `3.7 GiB`, never `3.8 GiB`).
 */
export function formatGiB(mib: number): string {
  // The epsilon keeps binary noise (4096 MiB as 3.9999…) from losing a tenth.
  const tenths = Math.floor((mib / MIB_PER_GIB) * 10 + 1e-9);
  return `${(tenths / 10).toFixed(1)} GiB`;
}

/** A request's `vramGiB`, formatted like every other memory figure. */
export function formatRequestedGiB(vramGiB: number): string {
  return formatGiB(vramGiB * MIB_PER_GIB);
}

/**
 * A replica's share of physical GPUs: `25% of a GPU` below one GPU (one
 * decimal at most: `42.9% of a GPU`), else `1 GPU` / `2 GPUs`.
 */
export function formatGpuShare(share: number): string {
  if (share < 1) {
    const percent = Math.round(share * 1000) / 10;
    return `${percent}% of a GPU`;
  }
  const gpus = Math.round(share * 100) / 100;
  return gpus === 1 ? '1 GPU' : `${gpus} GPUs`;
}
