import { WELL_KNOWN_KEYS } from '../manifests/metadata-keys';
import type {
  GpuCatalog,
  GpuModel,
  InstanceType,
  MachineProvider,
} from '../catalog/types';
import { modelUnavailable, unavailableIssue } from '../cluster/capabilities';
import type { ClusterProfile } from '../cluster/types';
import { GpuInputError, isGpuInputError } from '../errors';
import { centsToUsd, formatCents, formatUsd } from '../format/money';
import { formatRequestedGiB } from '../format/units';
import type { GpuRequest } from '../request/types';
import {
  CatalogIndex,
  indexCatalog,
  instanceTypesOf,
  machineProviderFor,
} from './catalog-index';
import { AUTO_MODEL, checkLargestGpu, resolveModel } from './choose-model';
import { scoreInstanceTypes } from './choose-instance-types';
import { choosePool, countNodes } from './choose-pool';
import { nonCollidingConfigName } from './config-names';
import { HOURS_PER_MONTH } from '../capacity/poolCost';
import { roundDecimals } from '../numbers/roundDecimals';
import { memoryAlternatives } from './memory-alternatives';
import {
  ModeDecision,
  WHOLE_GPU_RESOURCE,
  gib,
  requestedMiB,
} from './mode-decision';
import { poolCostView } from './pool-cost';
import { requestId } from './pool-limits';
import { basePoolName, freeName } from './pool-naming';
import {
  evaluateOption,
  leftPoolChanges,
  type LeftPoolChange,
  type PoolOption,
} from './pool-option';
import { isReusable, judgePool } from './reuse-pool';
import { reconcileReusedPoolConfigs } from './reused-pool-configs';
import { decideDra } from './sharing-dra';
import { decideExclusive } from './sharing-exclusive';
import { decideMig } from './sharing-mig';
import { decideMps, MPS_NEEDS_TWO_CLIENTS } from './sharing-mps';
import { decideTimeSlicing, SLICE_BELOW_REQUEST } from './sharing-time-slicing';
import { checkRequestNamespace } from './system-namespaces';
import type {
  Plan,
  PlanCost,
  PlanDecision,
  PoolState,
  RepoState,
  Taint,
} from './types';

/**
 * Turns a validated request into a Plan: GPU model, sharing config, pool
 * (reused or new, deterministic name), instance types, node count, limits,
 * cost, warnings and one explanation line per decision. Pure: same inputs,
 * same plan. Throws GpuInputError (with field paths) for impossible requests.
 */
export function plan(
  request: GpuRequest,
  catalog: GpuCatalog,
  cluster: ClusterProfile,
  repoState?: RepoState,
): Plan {
  checkRequestNamespace(request, cluster);
  const index = indexCatalog(catalog);
  const provider = machineProviderFor(cluster.provider);
  checkLargestGpu(request, index);
  const holding = leftPoolChanges(request, index, repoState);
  if (request.spec.gpu.model === AUTO_MODEL) {
    return planAutoModel(request, index, provider, cluster, repoState, holding);
  }
  const model = resolveModel(index, request.spec.gpu.model);
  return planForModel(
    request,
    model,
    index,
    provider,
    cluster,
    repoState,
    holding,
  );
}

/** The slicing a new pool of `model` would get for the request. */
function decide(
  request: GpuRequest,
  model: GpuModel,
  cluster: ClusterProfile,
  alternatives: () => string,
): ModeDecision {
  try {
    switch (request.spec.gpu.sharing) {
      case 'exclusive':
        return decideExclusive(request, model);
      case 'time-slicing':
        return decideTimeSlicing(request, model);
      case 'mps':
        return decideMps(request, model, cluster);
      case 'mig':
        return decideMig(request, model, cluster);
      case 'dra':
        return decideDra(request, model);
      default:
        throw new GpuInputError([
          {
            path: 'spec.gpu.sharing',
            rule: 'enum',
            message: `unknown sharing mode "${String(request.spec.gpu.sharing)}"`,
          },
        ]);
    }
  } catch (error) {
    // Memory below the ask is never planned: say what would fit instead.
    const issue = isGpuInputError(error) ? error.issues[0] : undefined;
    if (
      issue &&
      (issue.rule === SLICE_BELOW_REQUEST ||
        issue.rule === MPS_NEEDS_TWO_CLIENTS)
    ) {
      throw new GpuInputError([
        { ...issue, message: `${issue.message}. ${alternatives()}` },
      ]);
    }
    throw error;
  }
}

/**
 * Model "auto": among the models that can serve the request (a model whose
 * slices would fall below the ask is not one of them), the one that adds
 * the least to the bill, then the cheapest share, then the smallest GPU.
 */
function planAutoModel(
  request: GpuRequest,
  index: CatalogIndex,
  provider: MachineProvider,
  cluster: ClusterProfile,
  repoState: RepoState | undefined,
  holding: LeftPoolChange[],
): Plan {
  const candidates: { plan: Plan; model: GpuModel }[] = [];
  const rejected: { model: GpuModel; reason: string }[] = [];
  for (const model of index.models) {
    if (modelUnavailable(cluster, index, model)) continue;
    try {
      candidates.push({
        plan: planForModel(
          request,
          model,
          index,
          provider,
          cluster,
          repoState,
          holding,
        ),
        model,
      });
    } catch (error) {
      if (!isGpuInputError(error)) throw error;
      rejected.push({
        model,
        reason: error.issues[0]?.message ?? 'does not fit',
      });
    }
  }
  if (candidates.length === 0) {
    throw new GpuInputError([
      {
        path: 'spec.gpu.model',
        rule: 'no-model-fits',
        message: `no catalog model can serve ${formatRequestedGiB(request.spec.gpu.vramGiB)} with sharing "${request.spec.gpu.sharing}"${
          rejected.length
            ? `: ${rejected
                .slice(0, 4)
                .map(r => `${r.model.id} (${r.reason})`)
                .join('; ')}`
            : ''
        }`,
      },
    ]);
  }
  candidates.sort(
    (a, b) =>
      Number(b.plan.cost.priceKnown) - Number(a.plan.cost.priceKnown) ||
      a.plan.cost.marginalUsdPerMonth - b.plan.cost.marginalUsdPerMonth ||
      a.plan.cost.usdPerMonth - b.plan.cost.usdPerMonth ||
      a.model.memoryMiB - b.model.memoryMiB ||
      (a.model.id < b.model.id ? -1 : 1),
  );
  const best = candidates[0].plan;
  const adds = (p: Plan) =>
    `adds ${formatUsd(p.cost.marginalUsdPerMonth)}/month, ${formatUsd(p.cost.usdPerMonth)}/month attributed`;
  best.decisions.model = {
    choice: best.pool.gpuModel,
    reason: `model "auto": of ${candidates.length} model(s) that fit, ${best.pool.gpuModel} ${adds(best)} on pool ${best.pool.name}`,
    considered: [
      ...candidates.map(c => ({
        option: c.model.id,
        chosen: c.plan === best,
        reason: `${adds(c.plan)} on pool ${c.plan.pool.name}`,
      })),
      ...rejected.map(r => ({
        option: r.model.id,
        chosen: false,
        reason: r.reason,
      })),
    ],
  };
  const others = candidates
    .slice(1, 4)
    .map(c => `${c.model.id} ${formatUsd(c.plan.cost.marginalUsdPerMonth)}`)
    .join(', ');
  best.explanation.unshift(
    `model auto: ${best.pool.gpuModel} is the cheapest of ${candidates.length} fitting model(s): it adds ${formatUsd(best.cost.marginalUsdPerMonth)}/month${others ? ` (next: ${others})` : ''}.`,
  );
  return best;
}

function planForModel(
  request: GpuRequest,
  model: GpuModel,
  index: CatalogIndex,
  provider: MachineProvider,
  cluster: ClusterProfile,
  repoState: RepoState | undefined,
  holding: LeftPoolChange[],
): Plan {
  const gpu = request.spec.gpu;
  const types = instanceTypesOf(index, provider, model.id);
  // The rule the request form uses to offer the model disabled on this cluster.
  const unavailable = modelUnavailable(cluster, index, model);
  if (unavailable) throw new GpuInputError([unavailableIssue(unavailable)]);
  const ideal = decide(request, model, cluster, () =>
    memoryAlternatives(request, model, index, provider, cluster),
  );
  const allChoices = scoreInstanceTypes(types, ideal);
  if (allChoices.length === 0) {
    const most = Math.max(...types.map(t => t.gpusPerNode));
    throw new GpuInputError([
      {
        path: 'spec.gpu.gpusPerReplica',
        rule: 'exceeds-gpus-per-node',
        message: `${gpu.gpusPerReplica} GPUs per replica: no ${model.id} machine has that many (at most ${most} per node)`,
      },
    ]);
  }

  // Reuse before create: every pool of this GPU, judged and priced.
  const inputs = {
    request,
    index,
    repoState,
    vramMiB: requestedMiB(gpu.vramGiB),
    holding,
  };
  const options: PoolOption[] = [];
  const rejected: { pool: PoolState; reason: string }[] = [];
  for (const pool of repoState?.pools ?? []) {
    if (pool.gpuModel !== model.id) continue;
    const verdict = judgePool(pool, {
      request,
      model,
      cluster,
      repoState,
      types,
    });
    if (!isReusable(verdict)) {
      rejected.push({ pool, reason: verdict.rejected });
      continue;
    }
    const option = evaluateOption(inputs, {
      existing: pool,
      poolName: pool.name,
      decision: verdict.decision,
      choices: verdict.choices,
    });
    if (typeof option === 'string') rejected.push({ pool, reason: option });
    else options.push(option);
  }
  const base = basePoolName(model.id, ideal.poolSuffix);
  const freeNewName = freeName(
    base,
    n =>
      (repoState?.pools.some(p => p.name === n) ?? false) ||
      (repoState?.otherNodePools?.includes(n) ?? false),
  );
  const fresh =
    freeNewName === undefined
      ? undefined
      : evaluateOption(inputs, {
          poolName: freeNewName,
          decision: ideal,
          choices: allChoices,
        });
  if (typeof fresh === 'string') {
    throw new GpuInputError([
      { path: 'spec.gpu', rule: 'exceeds-node', message: fresh },
    ]);
  }
  const picked = choosePool({
    options,
    rejected,
    fresh,
    freshProblem:
      freeNewName === undefined
        ? `every candidate name for ${base} is taken by an incompatible pool`
        : undefined,
    idealSuffix: ideal.poolSuffix,
  });
  if (!picked) {
    throw new GpuInputError([
      {
        path: 'spec.gpu.model',
        rule: 'name-conflict',
        message: `every candidate pool name for ${base} is taken by an incompatible pool`,
      },
    ]);
  }
  return planOnOption(request, model, cluster, repoState, picked.chosen, {
    sharing: picked.chosen.decision.decision,
    pool: picked.decision,
    base,
  });
}

/** The plan of the request on the chosen pool. */
function planOnOption(
  request: GpuRequest,
  model: GpuModel,
  cluster: ClusterProfile,
  repoState: RepoState | undefined,
  option: PoolOption,
  why: { sharing: PlanDecision; pool: PlanDecision; base: string },
): Plan {
  const gpu = request.spec.gpu;
  const { decision, existing: reused, poolName, choices } = option;
  const warnings = [...decision.warnings];
  const explanation = [
    `model: ${model.id} (${model.displayName}, ${gib(model.memoryMiB)} per GPU).`,
    ...decision.explanation,
  ];
  const sharing = { ...decision.sharing };
  const modeLabels = { ...decision.modeLabels };

  // Config names never point at different content already in the repository.
  if (sharing.deviceConfigName && sharing.devicePluginConfig) {
    const name = nonCollidingConfigName(
      sharing.deviceConfigName,
      sharing.devicePluginConfig,
      repoState?.devicePluginConfigs,
      'spec.gpu.sharing',
      'device-plugin config',
    );
    if (name !== sharing.deviceConfigName) {
      explanation.push(
        `device-plugin config "${sharing.deviceConfigName}" holds other content in the repository; using "${name}".`,
      );
      sharing.deviceConfigName = name;
      modeLabels[WELL_KNOWN_KEYS.devicePluginConfig] = name;
    }
  }
  if (sharing.migConfigName && sharing.migConfigEntries) {
    const name = nonCollidingConfigName(
      sharing.migConfigName,
      sharing.migConfigEntries,
      repoState?.migConfigs,
      'spec.gpu.sharing',
      'mig-parted config',
    );
    if (name !== sharing.migConfigName) {
      explanation.push(
        `mig-parted config "${sharing.migConfigName}" holds other content in the repository; using "${name}".`,
      );
      sharing.migConfigName = name;
      modeLabels[WELL_KNOWN_KEYS.migConfig] = name;
    }
  }

  const { capacity, after } = option;
  const limitKey = Object.keys(capacity.limits).find(
    k => k === WHOLE_GPU_RESOURCE || k === 'nodes',
  );
  const limitBefore =
    reused && limitKey
      ? (reused.limits?.[limitKey] ??
        (reused.resourceName === limitKey ? reused.limit : undefined))
      : undefined;
  if (reused) {
    const limitAfter = limitKey ? capacity.limits[limitKey] : undefined;
    let limitText = `its ${limitKey} limit ${limitBefore ?? 'unset'} -> ${limitAfter}`;
    if (limitAfter === undefined) {
      limitText = 'it has no GPU limit, and keeps none';
    } else if (limitAfter === limitBefore) {
      limitText = `its ${limitKey} limit stays ${limitAfter}`;
    }
    explanation.push(
      `pool: reuse ${reused.name} (${reused.path}): ${why.pool.reason}; ${limitText}.`,
    );
    const live = reconcileReusedPoolConfigs(
      reused,
      sharing,
      modeLabels,
      repoState,
    );
    warnings.push(...live.warnings);
    explanation.push(...live.explanation);
  } else {
    explanation.push(
      poolName === why.base
        ? `pool: new pool ${poolName}: ${why.pool.reason}.`
        : `pool: new pool ${poolName} (${why.base} exists with other settings): ${why.pool.reason}.`,
    );
  }

  explanation.push(
    `instance types (cheapest per ${decision.resourceName} unit first): ${choices
      .slice(0, 5)
      .map(
        c =>
          `${c.type.name} ${c.priceKnown ? `${formatUsd(c.usdPerUnit * HOURS_PER_MONTH)}/month` : 'price unknown'}`,
      )
      .join(
        ', ',
      )}${choices.length > 5 ? `, +${choices.length - 5} more` : ''}.`,
    ...capacity.explanation,
    ...option.leftPools.flatMap(p => p.capacity.explanation),
  );

  const id = requestId(request);
  const share = after.shares.find(s => s.request === id)?.cents ?? 0;
  const poolView = poolCostView(poolName, after, option.nodesBefore);
  const cost: PlanCost = {
    usdPerMonth: centsToUsd(share),
    usdPerHour: roundDecimals(share / 100 / HOURS_PER_MONTH, 4),
    marginalUsdPerMonth: centsToUsd(option.marginalCents),
    priceKnown: after.priceKnown,
    pool: poolView,
  };
  if (!after.priceKnown) {
    warnings.push(
      `The on-demand price of ${after.instanceType ?? `the machines of pool ${poolName}`} is unknown: the costs shown are 0.`,
    );
  } else {
    explanation.push(
      `cost: pool ${poolName} runs ${after.nodes} x ${after.instanceType} at ${formatCents(after.nodeCents)}/month = ${formatCents(after.totalCents)}/month (${countNodes(option.nodesBefore)} before); this request holds ${after.shares.find(s => s.request === id)?.units ?? 0} of its ${after.capacityUnits} ${decision.resourceName}: ${formatCents(share)}/month attributed; ${after.idleUnits} idle: ${formatCents(after.idleCents)}/month; the change adds ${formatCents(option.marginalCents)}/month (on-demand list price${request.spec.capacityTypes.includes('spot') ? '; spot is usually cheaper' : ''}).`,
    );
  }

  const staticPool = gpu.sharing === 'dra';
  if (
    !cluster.nodeOverlay &&
    !staticPool &&
    decision.resourceName !== WHOLE_GPU_RESOURCE
  ) {
    warnings.push(
      `NodeOverlay is off for cluster "${cluster.name}": Karpenter does not know ${decision.resourceName} and will never launch nodes for these pods; nodes must already exist.`,
    );
  }

  const poolTypes: InstanceType[] = choices.map(c => c.type);
  const otherTaints = reusedPoolTaints(reused);
  const taint = reusedPoolTaint(reused, cluster.gpuTaintKey) ?? {
    key: cluster.gpuTaintKey,
    // One value per pool: only pods planned for this pool tolerate it.
    value: poolName,
    effect: 'NoSchedule' as const,
  };
  const labels: Record<string, string> = {
    [`${cluster.labelDomain}/pool`]: poolName,
    [`${cluster.labelDomain}/gpu-model`]: model.id,
    [`${cluster.labelDomain}/sharing`]: gpu.sharing,
    ...modeLabels,
  };
  const capacityTypes = reused
    ? [...reused.capacityTypes]
    : [...request.spec.capacityTypes];

  return {
    request,
    cluster: cluster.name,
    pool: {
      name: poolName,
      gpuModel: model.id,
      instanceTypes: poolTypes.map(t => t.name),
      gpuCounts: distinctSorted(poolTypes.map(t => t.gpusPerNode)),
      karpenterGpuNames: distinctSorted(
        poolTypes.flatMap(t =>
          t.karpenterGpuName ? [t.karpenterGpuName] : [],
        ),
      ),
      capacityTypes,
      reused: reused !== undefined,
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
      labels,
      limits: capacity.limits,
      ledger: capacity.ledger,
      ...(capacity.limitFloor !== undefined
        ? { limitFloor: capacity.limitFloor }
        : {}),
    },
    leftPools: option.leftPools.map(({ pool, capacity: left }) => ({
      name: pool.name,
      path: pool.path,
      ledger: left.ledger,
      ...(left.limitFloor !== undefined ? { limitFloor: left.limitFloor } : {}),
      limits: left.limits,
    })),
    sharing,
    resourceName: decision.resourceName,
    resourcePerReplica: decision.resourcePerReplica,
    perReplica: {
      vramGiB: gpu.vramGiB,
      vramGuaranteed: decision.vramGuaranteed,
      memoryMiB: decision.memoryMiB,
      gpuShare: roundDecimals(decision.gpuShare, 6),
      ...(decision.computeShare !== undefined
        ? { computeShare: roundDecimals(decision.computeShare, 6) }
        : {}),
    },
    nodes: {
      expected: after.nodes,
      slicesPerNode: after.unitsPerNode,
      instanceType: after.instanceType ?? poolTypes[0].name,
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

function distinctSorted<T extends number | string>(values: T[]): T[] {
  return [...new Set(values)].sort((a, b) => {
    if (a === b) return 0;
    return a < b ? -1 : 1;
  });
}

/** Every taint of a reused pool that keeps pods off (NoSchedule, NoExecute). */
function reusedPoolTaints(reused: PoolState | undefined): Taint[] {
  return (reused?.taints ?? [])
    .filter(t => t.effect === 'NoSchedule' || t.effect === 'NoExecute')
    .map(t => ({
      key: t.key,
      value: t.value ?? '',
      effect: t.effect as Taint['effect'],
    }));
}

/**
 * A reused pool keeps the taint it has in the repository (perhaps written by
 * hand, e.g. `nvidia.com/gpu=true`): the workload must tolerate THAT taint, not
 * the one we would derive for a new pool. Prefer the cluster's GPU taint key.
 */
function reusedPoolTaint(
  reused: PoolState | undefined,
  gpuTaintKey: string,
): Taint | undefined {
  const taints = (reused?.taints ?? []).filter(t =>
    ['NoSchedule', 'PreferNoSchedule', 'NoExecute'].includes(t.effect),
  );
  const chosen = taints.find(t => t.key === gpuTaintKey) ?? taints[0];
  if (!chosen) return undefined;
  return {
    key: chosen.key,
    value: chosen.value ?? '',
    effect: chosen.effect as Taint['effect'],
  };
}
