/**
 * Right-size: where an allocation's own pods used far less VRAM than a
 * replica holds (or more than it holds), the plan that fits the measured
 * peak with headroom, asked of the same planner a pull request uses,
 * against the repository as it is — so the money shown is what the pull
 * request "Change GPUs" opens will say. Only per-pod figures qualify: a
 * shared GPU's numbers are the whole GPU's.
 */
import {
  centsToUsd,
  isGpuInputError,
  parseGpuRequest,
  plan,
  usdToCents,
  type ClusterProfile,
  type GpuAllocation,
  type GpuCatalog,
  type Plan,
  type RepoState,
  type RightSizeSuggestion,
  type SharingMode,
} from '@gpu-gitops/plugin-gpu-common';
import {
  EMPTY_POLICY,
  ownerPolicyCheck,
  type GpuPolicy,
} from '@gpu-gitops/plugin-gpu-node';

/** VRAM kept above the measured peak (a quarter). */
export const HEADROOM = 1.25;
/** "Far less": a peak with headroom under half of what a replica holds. */
const FAR_BELOW = 0.5;
/** The modes a smaller fit may use, in the order they are tried. */
const CANDIDATE_MODES: SharingMode[] = [
  'mig',
  'mps',
  'time-slicing',
  'exclusive',
];

/** GiB in half steps, at least the peak with headroom. */
function fitGiB(peakMiB: number): number {
  return Math.max(0.5, Math.ceil(((peakMiB * HEADROOM) / 1024) * 2) / 2);
}

/** What right-sizing reads beside the allocation. */
export interface RightSizeContext {
  cluster: ClusterProfile;
  catalog: GpuCatalog;
  repoState?: RepoState;
  /** The owners' allowed models and modes: a suggestion the owner may not send is none. */
  policy?: GpuPolicy;
}

type RequestSpec = NonNullable<GpuAllocation['requestSpec']>;

export function rightSize(
  allocation: GpuAllocation,
  context: RightSizeContext,
): RightSizeSuggestion | undefined {
  const u = allocation.utilization;
  const spec = allocation.requestSpec;
  if (
    !u ||
    !spec ||
    u.attribution !== 'per-pod' ||
    u.vramPeakMiB === undefined
  ) {
    return undefined;
  }
  const needMiB = u.vramPeakMiB * HEADROOM;
  const tooBig = needMiB < u.vramAllottedMiB * FAR_BELOW;
  const tooSmall = u.vramPeakMiB > u.vramAllottedMiB;
  if (!tooBig && !tooSmall) return undefined;
  const vramGiB = fitGiB(u.vramPeakMiB);
  const best = cheapestFit(allocation, spec, vramGiB, needMiB, context);
  if (!best) return undefined;
  const saved = centsToUsd(
    usdToCents(allocation.usdPerMonth) - usdToCents(best.plan.cost.usdPerMonth),
  );
  // Growing is suggested whatever it costs; shrinking only when it saves.
  if (tooBig && saved <= 0) return undefined;
  return {
    ...suggestedPlan(best),
    savedUsdPerMonth: saved,
    reason: tooSmall
      ? `its pods peaked at ${Math.round(u.vramPeakMiB)} MiB over ${u.window}, above the ${u.vramAllottedMiB} MiB a replica holds`
      : `its pods peaked at ${Math.round(u.vramPeakMiB)} MiB over ${u.window}; ${vramGiB} GiB per replica keeps a quarter of headroom`,
  };
}

interface Fit {
  plan: Plan;
  spec: RequestSpec;
}

/** The cheapest of the candidate modes whose plan holds `needMiB` per replica. */
function cheapestFit(
  allocation: GpuAllocation,
  spec: RequestSpec,
  vramGiB: number,
  needMiB: number,
  context: RightSizeContext,
): Fit | undefined {
  let best: Fit | undefined;
  for (const sharing of CANDIDATE_MODES) {
    const candidate = {
      ...spec,
      gpu: {
        model: spec.gpu.model,
        sharing,
        replicas: spec.gpu.replicas,
        vramGiB,
        gpusPerReplica: 1,
      },
    };
    const planned = planCandidate(allocation, candidate, context);
    if (!planned || planned.perReplica.memoryMiB < needMiB) continue;
    if (!best || planned.cost.usdPerMonth < best.plan.cost.usdPerMonth) {
      best = { plan: planned, spec: candidate };
    }
  }
  return best;
}

/**
 * The planner's answer for one candidate spec, or undefined when the owner
 * may not choose it or this mode cannot hold it here.
 */
function planCandidate(
  allocation: GpuAllocation,
  candidate: RequestSpec,
  context: RightSizeContext,
): Plan | undefined {
  try {
    const request = parseGpuRequest({
      kind: 'GpuRequest',
      metadata: { name: allocation.name, namespace: allocation.namespace },
      spec: candidate,
    });
    const check = ownerPolicyCheck(
      context.policy ?? EMPTY_POLICY,
      context.catalog,
      request,
    );
    if (check.choiceIssues.length > 0) return undefined; // not the owner's to choose
    return plan(request, check.catalog, context.cluster, context.repoState);
  } catch (error) {
    if (isGpuInputError(error)) return undefined; // this mode cannot hold it here
    throw error;
  }
}

/** The suggestion's figures, read off the chosen plan. */
function suggestedPlan({ plan: p, spec }: Fit) {
  return {
    requestSpec: spec,
    sharingMode: p.sharing.mode,
    pool: p.pool.name,
    resourceName: p.resourceName,
    vramMiBPerReplica: p.perReplica.memoryMiB,
    ...(p.sharing.migProfile ? { migProfile: p.sharing.migProfile } : {}),
    ...(p.sharing.slicesPerGpu ? { slicesPerGpu: p.sharing.slicesPerGpu } : {}),
    usdPerMonth: p.cost.usdPerMonth,
  };
}
