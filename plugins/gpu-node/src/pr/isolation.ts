/**
 * What each sharing mode costs in isolation and throughput, in the words a
 * reviewer needs. Figures: CERN's GPU-sharing benchmark (A100 40GB, a
 * compute-bound Xsuite simulation): time-slicing two jobs on one GPU lost
 * ~38 % throughput to context switching (no further loss at 4 or 8 sharers);
 * MIG's whole-GPU profile (7g.40gb) ran ~9 % slower than the GPU without MIG.
 */
import { formatGiB, type Plan } from '@gpu-gitops/plugin-gpu-common';

export function isolationTradeOff(plan: Plan): string[] {
  const sharing = plan.sharing;
  switch (sharing.mode) {
    case 'time-slicing':
      return [
        `**No memory isolation**: the ${sharing.slicesPerGpu ?? 'N'} replicas on a GPU share its memory; one that grows can starve or OOM the others.`,
        'No fault isolation and no priorities: replicas take turns on the whole GPU (round-robin time slices).',
        '**~38 % throughput loss** measured when two compute-bound jobs share one GPU (context switching; no further loss with 4 or 8 sharers). Fine for spiky or mostly idle work, not for latency-sensitive or saturating jobs.',
      ];
    case 'mps':
      return [
        `Memory is limited per process: each client has a pinned device-memory limit${
          sharing.mpsPinnedMemoryMiB
            ? ` of ${formatGiB(sharing.mpsPinnedMemoryMiB)}`
            : ''
        } and a share of the GPU's compute.`,
        '**No fault isolation**: a fatal GPU error in one client can take down every client of the MPS server on that GPU.',
        'Clients run concurrently (no context switching), so throughput is better than time-slicing for small kernels.',
      ];
    case 'mig':
      return [
        `**Full isolation**: each replica gets its own MIG instance${
          sharing.migProfile ? ` (\`${sharing.migProfile}\`)` : ''
        } with dedicated memory, cache and compute; faults stay inside the instance.`,
        '**~9 % overhead** measured for the whole-GPU profile (7g.40gb vs. the GPU without MIG); smaller instances scale close to their share.',
        "Changing a node's MIG layout evicts every GPU pod on it (see the checklist).",
      ];
    case 'exclusive':
      return ['None: each replica owns whole GPUs (no sharing, no overhead).'];
    case 'dra':
      return [
        sharing.slicesPerGpu
          ? `**No memory isolation**: the NVIDIA DRA driver shares each GPU among ${sharing.slicesPerGpu} shares of claims and time-slices them; shares only count for the scheduler, a replica that grows can starve or OOM the others.`
          : 'Devices are allocated through Dynamic Resource Allocation: each claim holds a whole GPU.',
        // A static pool is the only one limited in nodes (manifests/nodePool.ts).
        plan.pool.limits.nodes === undefined
          ? "Karpenter launches this pool's nodes for pending claims (its DRA support is alpha: AWS feature gate DRANVIDIAGPU)."
          : 'Karpenter does not provision nodes for pods with resource claims here: this runs on a static pool.',
      ];
    default:
      return [];
  }
}
