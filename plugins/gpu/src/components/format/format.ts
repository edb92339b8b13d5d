/**
 * Display formats of the card, the pool view and the picker: gpu-common's,
 * the same the PR body and the CLI use (one unit per quantity everywhere).
 */
export {
  formatGiB,
  formatGpuShare,
  formatReplicaGpuShare,
  formatRequestedGiB,
  formatUsd,
} from '@gpu-gitops/plugin-gpu-common';
