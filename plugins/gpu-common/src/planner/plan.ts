import type {
  GpuCatalog,
  GpuModel,
  InstanceType,
  MachineProvider,
} from '../catalog/types';
import { modelUnavailable, unavailableIssue } from '../cluster/capabilities';
import type { ClusterProfile } from '../cluster/types';
import { GpuInputError, isGpuInputError } from '../errors';
import type { GpuRequest } from '../request/types';
import {
  CatalogIndex,
  indexCatalog,
  instanceTypesOf,
  machineProviderFor,
} from './catalog-index';
import { AUTO_MODEL, checkLargestGpu, resolveModel } from './choose-model';
import {
  cheapestForRequest,
  scoreInstanceTypes,
} from './choose-instance-types';
import { nonCollidingConfigName } from './config-names';
import { HOURS_PER_MONTH, nodeCost, round } from './cost';
import {
  DEVICE_PLUGIN_CONFIG_LABEL,
  MIG_CONFIG_LABEL,
  ModeDecision,
  WHOLE_GPU_RESOURCE,
} from './mode-decision';
import { poolLimits, poolWithout } from './pool-limits';
import { sizingOfPool } from './pool-sizing';
import { basePoolName, freeName } from './pool-naming';
import { findReusablePool } from './reuse-pool';
import { reconcileReusedPoolConfigs } from './reused-pool-configs';
import { decideDra } from './sharing-dra';
import { decideExclusive } from './sharing-exclusive';
import { decideMig } from './sharing-mig';
import { decideMps } from './sharing-mps';
import { decideTimeSlicing } from './sharing-time-slicing';
import { checkRequestNamespace } from './system-namespaces';
import type { Plan, PoolState, RepoState, Taint } from './types';

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
  if (request.spec.gpu.model === AUTO_MODEL) {
    return planAutoModel(request, index, provider, cluster, repoState);
  }
  const model = resolveModel(index, request.spec.gpu.model);
  return planForModel(request, model, index, provider, cluster, repoState);
}

function decide(
  request: GpuRequest,
  model: GpuModel,
  cluster: ClusterProfile,
): ModeDecision {
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
}

/** Cheapest model (by this request's monthly cost) that can serve the request. */
function planAutoModel(
  request: GpuRequest,
  index: CatalogIndex,
  provider: MachineProvider,
  cluster: ClusterProfile,
  repoState: RepoState | undefined,
): Plan {
  const candidates: { plan: Plan; priceKnown: boolean; model: GpuModel }[] = [];
  const rejected: string[] = [];
  for (const model of index.models) {
    if (modelUnavailable(cluster, index, model)) continue;
    try {
      const candidate = planForModel(
        request,
        model,
        index,
        provider,
        cluster,
        repoState,
      );
      const type = index.instanceTypesByName.get(candidate.nodes.instanceType);
      candidates.push({
        plan: candidate,
        priceKnown:
          type !== undefined &&
          (type.onDemandUsdPerHour > 0 || type.provider === 'static'),
        model,
      });
    } catch (error) {
      if (!isGpuInputError(error)) throw error;
      rejected.push(
        `${model.id} (${error.issues[0]?.message ?? 'does not fit'})`,
      );
    }
  }
  if (candidates.length === 0) {
    throw new GpuInputError([
      {
        path: 'spec.gpu.model',
        rule: 'no-model-fits',
        message: `no catalog model can serve ${request.spec.gpu.vramGiB} GiB with sharing "${request.spec.gpu.sharing}"${rejected.length ? `: ${rejected.slice(0, 4).join('; ')}` : ''}`,
      },
    ]);
  }
  candidates.sort(
    (a, b) =>
      Number(b.priceKnown) - Number(a.priceKnown) ||
      a.plan.cost.usdPerMonth - b.plan.cost.usdPerMonth ||
      a.model.memoryMiB - b.model.memoryMiB ||
      (a.model.id < b.model.id ? -1 : 1),
  );
  const best = candidates[0].plan;
  const others = candidates
    .slice(1, 4)
    .map(c => `${c.model.id} $${c.plan.cost.usdPerMonth}/month`)
    .join(', ');
  best.explanation.unshift(
    `model auto: ${best.pool.gpuModel} is the cheapest of ${candidates.length} fitting model(s) at $${best.cost.usdPerMonth}/month${others ? ` (next: ${others})` : ''}.`,
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
): Plan {
  const gpu = request.spec.gpu;
  const types = instanceTypesOf(index, provider, model.id);
  // The rule the request form uses to offer the model disabled on this cluster.
  const unavailable = modelUnavailable(cluster, index, model);
  if (unavailable) throw new GpuInputError([unavailableIssue(unavailable)]);
  const decision = decide(request, model, cluster);
  const warnings = [...decision.warnings];
  const explanation = [
    `model: ${model.id} (${model.displayName}, ${model.memoryMiB} MiB per GPU).`,
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
      modeLabels[DEVICE_PLUGIN_CONFIG_LABEL] = name;
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
      modeLabels[MIG_CONFIG_LABEL] = name;
    }
  }

  const scoring = {
    unitsPerGpu: decision.unitsPerGpu,
    resourcePerReplica: decision.resourcePerReplica,
    minGpusPerNode: decision.minGpusPerNode,
    replicas: gpu.replicas,
  };
  const allChoices = scoreInstanceTypes(types, scoring);
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

  // Reuse before create.
  const reused = findReusablePool(repoState, {
    gpuModel: model.id,
    sharingMode: gpu.sharing,
    slicesPerGpu: sharing.slicesPerGpu,
    migProfile: sharing.migProfile,
    resourceName: decision.resourceName,
    capacityTypes: request.spec.capacityTypes,
    usableInstanceTypes: new Set(allChoices.map(c => c.type.name)),
  });
  let choices = allChoices;
  let poolName: string;
  if (reused) {
    poolName = reused.name;
    if (reused.instanceTypes.length > 0) {
      const allowed = new Set(reused.instanceTypes);
      choices = allChoices.filter(c => allowed.has(c.type.name));
    }
    explanation.push(
      `reuse: pool ${reused.name} (${reused.path}) already runs ${model.id} ${gpu.sharing} with ${decision.resourceName}; its limits are raised instead of creating a pool.`,
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
    const base = basePoolName(model.id, decision.poolSuffix);
    const name = freeName(
      base,
      n =>
        (repoState?.pools.some(p => p.name === n) ?? false) ||
        (repoState?.otherNodePools?.includes(n) ?? false),
    );
    if (name === undefined) {
      throw new GpuInputError([
        {
          path: 'spec.gpu.model',
          rule: 'name-conflict',
          message: `every candidate pool name for ${base} is taken by an incompatible pool`,
        },
      ]);
    }
    poolName = name;
    explanation.push(
      name === base
        ? `new pool ${name}.`
        : `new pool ${name}: ${base} exists with other settings (capacity types, instance types or resource).`,
    );
  }

  const chosen = cheapestForRequest(choices);
  const poolTypes: InstanceType[] = choices.map(c => c.type);
  const staticPool = gpu.sharing === 'dra';
  const capacity = poolLimits({
    request,
    existing: reused,
    repoState,
    poolName,
    resourcePerReplica: decision.resourcePerReplica,
    sizing: {
      resourceName: decision.resourceName,
      unitsPerGpu: decision.unitsPerGpu,
      gpuCounts: poolTypes.map(t => t.gpusPerNode),
      staticPool,
    },
  });
  const leftPools = (repoState?.pools ?? []).flatMap(pool => {
    if (pool.name === poolName) return [];
    const left = poolWithout(
      pool,
      request,
      repoState,
      sizingOfPool(pool, index, repoState),
    );
    return left
      ? [
          {
            name: pool.name,
            path: pool.path,
            ledger: left.ledger,
            ...(left.limitFloor !== undefined
              ? { limitFloor: left.limitFloor }
              : {}),
            limits: left.limits,
            explanation: left.explanation,
          },
        ]
      : [];
  });

  explanation.push(
    `instance types (cheapest per ${decision.resourceName} unit first): ${choices
      .slice(0, 5)
      .map(
        c =>
          `${c.type.name} ${c.priceKnown ? `$${round(c.usdPerUnit, 4)}` : 'price unknown'}`,
      )
      .join(
        ', ',
      )}${choices.length > 5 ? `, +${choices.length - 5} more` : ''}.`,
    `nodes: ceil(${gpu.replicas} replicas / ${chosen.replicasPerNode} per ${chosen.type.name}) = ${chosen.nodes} (${chosen.unitsPerNode} x ${decision.resourceName} per node), the lowest total price for this request.`,
    ...capacity.explanation,
    ...leftPools.flatMap(p => p.explanation),
  );

  const cost = nodeCost(
    chosen.nodes,
    chosen.priceKnown ? chosen.type.onDemandUsdPerHour : 0,
  );
  if (!chosen.priceKnown) {
    warnings.push(
      `The on-demand price of ${chosen.type.name} is unknown: the cost shown is 0.`,
    );
  } else {
    explanation.push(
      `cost: ${chosen.nodes} x ${chosen.type.name} at $${chosen.type.onDemandUsdPerHour}/h = $${cost.usdPerHour}/h, x ${HOURS_PER_MONTH} h = $${cost.usdPerMonth}/month (on-demand list price${request.spec.capacityTypes.includes('spot') ? '; spot is usually cheaper' : ''}).`,
    );
  }

  if (
    !cluster.nodeOverlay &&
    !staticPool &&
    decision.resourceName !== WHOLE_GPU_RESOURCE
  ) {
    warnings.push(
      `NodeOverlay is off for cluster "${cluster.name}": Karpenter does not know ${decision.resourceName} and will never launch nodes for these pods; nodes must already exist.`,
    );
  }

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
    leftPools: leftPools.map(({ explanation: _lines, ...pool }) => pool),
    sharing,
    resourceName: decision.resourceName,
    resourcePerReplica: decision.resourcePerReplica,
    perReplica: {
      vramGiB: gpu.vramGiB,
      vramGuaranteed: decision.vramGuaranteed,
      memoryMiB: decision.memoryMiB,
      gpuShare: round(decision.gpuShare, 6),
    },
    nodes: {
      expected: chosen.nodes,
      slicesPerNode: chosen.unitsPerNode,
      instanceType: chosen.type.name,
    },
    physicalGpus: round(gpu.replicas * decision.physicalGpusPerReplica, 4),
    cost,
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
