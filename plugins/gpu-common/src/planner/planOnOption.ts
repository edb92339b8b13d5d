import type { GpuModel, InstanceType } from '../catalog/types';
import { stackCaveats } from '../cluster/capabilities';
import type { ClusterProfile } from '../cluster/types';
import { centsToUsd, formatCents, formatUsd } from '../format/money';
import type { GpuRequest } from '../request/types';
import { countNodes } from './choosePool';
import { HOURS_PER_MONTH } from '../capacity/poolCost';
import { roundDecimals } from '../numbers/roundDecimals';
import { WHOLE_GPU_RESOURCE, gib, type ModeDecision } from './modeDecision';
import { poolCostView } from './poolCost';
import { requestId } from './poolLimits';
import type { PoolOption } from './poolOption';
import { reusedPoolTaint, reusedPoolTaints } from './poolTaints';
import { settleConfigNames } from './planConfigNames';
import {
  keepOperatorDefaultConfig,
  reconcileReusedPoolConfigs,
} from './reusedPoolConfigs';
import type {
  Plan,
  PlanCost,
  PlanDecision,
  PoolPlan,
  RepoState,
  SharingPlan,
} from './types';

/** Why the plan chose as it did: the sharing mode, the pool and the pool's base name. */
type PlanReasons = { sharing: PlanDecision; pool: PlanDecision; base: string };

/** What one replica gets on the chosen pool. */
function perReplicaOf(
  vramGiB: number,
  decision: ModeDecision,
): Plan['perReplica'] {
  return {
    vramGiB,
    vramGuaranteed: decision.vramGuaranteed,
    memoryMiB: decision.memoryMiB,
    gpuShare: roundDecimals(decision.gpuShare, 6),
    ...(decision.computeShare !== undefined
      ? { computeShare: roundDecimals(decision.computeShare, 6) }
      : {}),
  };
}

/** The plan of the request on the chosen pool. */
export function planOnOption(
  request: GpuRequest,
  model: GpuModel,
  cluster: ClusterProfile,
  repoState: RepoState | undefined,
  option: PoolOption,
  why: PlanReasons,
): Plan {
  const gpu = request.spec.gpu;
  const { decision, after } = option;
  const warnings = [
    ...decision.warnings,
    ...stackCaveats(cluster, decision, repoState?.gpuStack),
  ];
  const explanation = [
    `model: ${model.id} (${model.displayName}, ${gib(model.memoryMiB)} per GPU).`,
    ...decision.explanation,
  ];
  const sharing = { ...decision.sharing };
  const modeLabels = { ...decision.modeLabels };
  const handWritten = settleConfigNames(
    option.existing,
    decision,
    cluster,
    repoState,
    sharing,
    modeLabels,
    explanation,
  );
  const poolLines = explainPoolChoice(option, why, {
    sharing,
    modeLabels,
    repoState,
    handWritten: handWritten !== undefined,
  });
  warnings.push(...poolLines.warnings);
  explanation.push(
    ...poolLines.explanation,
    instanceTypesLine(decision, option),
    ...option.capacity.explanation,
    ...option.leftPools.flatMap(p => p.capacity.explanation),
  );
  const cost = planCost(request, option, warnings, explanation);
  const pool = plannedPool(request, model, cluster, option, modeLabels);

  return {
    request,
    cluster: cluster.name,
    pool,
    leftPools: leftPoolsOf(option),
    sharing,
    resourceName: decision.resourceName,
    resourcePerReplica: decision.resourcePerReplica,
    perReplica: perReplicaOf(gpu.vramGiB, decision),
    nodes: {
      expected: after.nodes,
      slicesPerNode: after.unitsPerNode,
      instanceType: after.instanceType ?? pool.instanceTypes[0],
    },
    physicalGpus: roundDecimals(gpu.replicas * decision.gpuShare, 4),
    cost,
    decisions: {
      model: {
        choice: model.id,
        reason: `${model.id} as requested (${model.displayName}, ${gib(model.memoryMiB)} per GPU)`,
        considered: [],
      },
      sharing: why.sharing,
      pool: why.pool,
    },
    warnings,
    explanation,
  };
}

/** The pools the request leaves, with their ledgers and limits after it. */
function leftPoolsOf(option: PoolOption): Plan['leftPools'] {
  return option.leftPools.map(({ pool, capacity, nodesAfter }) => ({
    name: pool.name,
    path: pool.path,
    ledger: capacity.ledger,
    ...(capacity.limitFloor !== undefined
      ? { limitFloor: capacity.limitFloor }
      : {}),
    limits: capacity.limits,
    nodesAfter,
  }));
}

/**
 * The explanation of the pool chosen: a new pool and why, or the pool reused
 * with its GPU limit before and after, the live configs its nodes already
 * read (reconciled with the plan's) and the operator's default config kept.
 */
function explainPoolChoice(
  option: PoolOption,
  why: PlanReasons,
  configs: {
    sharing: SharingPlan;
    modeLabels: Record<string, string>;
    repoState: RepoState | undefined;
    /** A hand-written config is used as it is: nothing to reconcile. */
    handWritten: boolean;
  },
): { warnings: string[]; explanation: string[] } {
  const { existing: reused, poolName, capacity } = option;
  if (!reused) {
    const line =
      poolName === why.base
        ? `pool: new pool ${poolName}: ${why.pool.reason}.`
        : `pool: new pool ${poolName} (${why.base} exists with other settings): ${why.pool.reason}.`;
    return { warnings: [], explanation: [line] };
  }
  const limitKey = Object.keys(capacity.limits).find(
    k => k === WHOLE_GPU_RESOURCE || k === 'nodes',
  );
  const limitBefore = limitKey
    ? (reused.limits?.[limitKey] ??
      (reused.resourceName === limitKey ? reused.limit : undefined))
    : undefined;
  const limitAfter = limitKey ? capacity.limits[limitKey] : undefined;
  let limitText = `its ${limitKey} limit ${limitBefore ?? 'unset'} -> ${limitAfter}`;
  if (limitAfter === undefined) {
    limitText = 'it has no GPU limit, and keeps none';
  } else if (limitAfter === limitBefore) {
    limitText = `its ${limitKey} limit stays ${limitAfter}`;
  }
  const warnings: string[] = [];
  const explanation = [
    `pool: reuse ${reused.name} (${reused.path}): ${why.pool.reason}; ${limitText}.`,
  ];
  const { sharing, modeLabels, repoState } = configs;
  if (!configs.handWritten) {
    const live = reconcileReusedPoolConfigs(
      reused,
      sharing,
      modeLabels,
      repoState,
    );
    warnings.push(...live.warnings);
    explanation.push(...live.explanation);
  }
  const onDefault = keepOperatorDefaultConfig(
    reused,
    sharing,
    modeLabels,
    repoState?.gpuStack,
  );
  if (onDefault) explanation.push(onDefault);
  return { warnings, explanation };
}

/** The pool's instance types, cheapest per unit first (five named). */
function instanceTypesLine(decision: ModeDecision, option: PoolOption): string {
  const { choices } = option;
  const named = choices
    .slice(0, 5)
    .map(
      c =>
        `${c.type.name} ${c.priceKnown ? `${formatUsd(c.usdPerUnit * HOURS_PER_MONTH)}/month` : 'price unknown'}`,
    )
    .join(', ');
  const more = choices.length > 5 ? `, +${choices.length - 5} more` : '';
  return `instance types (cheapest per ${decision.resourceName} unit first): ${named}${more}.`;
}

/**
 * What the request costs: its share of the pool's bill and what the change
 * adds, explained line by line (or a warning when the price is unknown).
 */
function planCost(
  request: GpuRequest,
  option: PoolOption,
  warnings: string[],
  explanation: string[],
): PlanCost {
  const { after, poolName, decision } = option;
  const id = requestId(request);
  const held = after.shares.find(s => s.request === id);
  const share = held?.cents ?? 0;
  if (!after.priceKnown) {
    warnings.push(
      `The on-demand price of ${after.instanceType ?? `the machines of pool ${poolName}`} is unknown: the costs shown are 0.`,
    );
  } else {
    explanation.push(
      `cost: pool ${poolName} runs ${after.nodes} x ${after.instanceType} at ${formatCents(after.nodeCents)}/month = ${formatCents(after.totalCents)}/month (${countNodes(option.nodesBefore)} before); this request holds ${held?.units ?? 0} of its ${after.capacityUnits} ${decision.resourceName}: ${formatCents(share)}/month attributed; ${after.idleUnits} idle: ${formatCents(after.idleCents)}/month; the change adds ${formatCents(option.marginalCents)}/month (on-demand list price${request.spec.capacityTypes.includes('spot') ? '; spot is usually cheaper' : ''}).`,
    );
  }
  return {
    usdPerMonth: centsToUsd(share),
    usdPerHour: roundDecimals(share / 100 / HOURS_PER_MONTH, 4),
    marginalUsdPerMonth: centsToUsd(option.marginalCents),
    priceKnown: after.priceKnown,
    pool: poolCostView(poolName, after, option.nodesBefore),
  };
}

/**
 * The pool as the plan writes it: its machines, its taint (the reused
 * pool's own, or one whose value is the pool so only pods planned for it
 * tolerate it), its labels and its limits.
 */
function plannedPool(
  request: GpuRequest,
  model: GpuModel,
  cluster: ClusterProfile,
  option: PoolOption,
  modeLabels: Record<string, string>,
): PoolPlan {
  const { existing: reused, poolName, capacity } = option;
  const poolTypes: InstanceType[] = option.choices.map(c => c.type);
  const otherTaints = reusedPoolTaints(reused);
  const taint = reusedPoolTaint(reused, cluster.gpuTaintKey) ?? {
    key: cluster.gpuTaintKey,
    value: poolName,
    effect: 'NoSchedule' as const,
  };
  return {
    name: poolName,
    gpuModel: model.id,
    instanceTypes: poolTypes.map(t => t.name),
    gpuCounts: distinctSorted(poolTypes.map(t => t.gpusPerNode)),
    karpenterGpuNames: distinctSorted(
      poolTypes.flatMap(t => (t.karpenterGpuName ? [t.karpenterGpuName] : [])),
    ),
    capacityTypes: reused
      ? [...reused.capacityTypes]
      : [...request.spec.capacityTypes],
    reused: reused !== undefined,
    ...(reused ? { path: reused.path } : {}),
    ...(reused && (reused.migConfigName ?? reused.deviceConfigName)
      ? { liveConfigName: reused.migConfigName ?? reused.deviceConfigName }
      : {}),
    taint,
    ...(otherTaints.length > 1
      ? {
          otherTaints: otherTaints.filter(
            t => !(t.key === taint.key && t.effect === taint.effect),
          ),
        }
      : {}),
    labels: {
      [`${cluster.labelDomain}/pool`]: poolName,
      [`${cluster.labelDomain}/gpu-model`]: model.id,
      [`${cluster.labelDomain}/sharing`]: request.spec.gpu.sharing,
      ...modeLabels,
    },
    limits: capacity.limits,
    ledger: capacity.ledger,
    ...(capacity.limitFloor !== undefined
      ? { limitFloor: capacity.limitFloor }
      : {}),
  };
}

function distinctSorted<T extends number | string>(values: T[]): T[] {
  return [...new Set(values)].sort((a, b) => {
    if (a === b) return 0;
    return a < b ? -1 : 1;
  });
}
