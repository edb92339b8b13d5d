/** Display formats shared by the card, the pool view and the picker. */

const usd = new Intl.NumberFormat('en-US', {
  style: 'currency',
  currency: 'USD',
  maximumFractionDigits: 2,
});

/** `$1,234.56` */
export function formatUsd(value: number): string {
  return usd.format(value);
}

/**
 * `12.5 GiB` from MiB, one decimal rounded down: never promise more memory
 * than there is (and the template's model labels round the same way).
 */
export function formatGiB(mib: number): string {
  const gib = Math.floor((mib / 1024) * 10) / 10;
  return `${gib} GiB`;
}

/**
 * A replica's share of physical GPUs: `25% of a GPU` below one GPU, else
 * `1 GPU` / `2 GPUs` (exclusive mode can give several whole GPUs).
 */
export function formatGpuShare(share: number): string {
  if (share < 1) {
    const percent = Math.round(share * 1000) / 10;
    return `${percent}% of a GPU`;
  }
  const gpus = Math.round(share * 100) / 100;
  return gpus === 1 ? '1 GPU' : `${gpus} GPUs`;
}
