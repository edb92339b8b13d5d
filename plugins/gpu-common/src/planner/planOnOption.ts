import { WELL_KNOWN_KEYS } from '../manifests/metadataKeys';
import type { GpuModel, InstanceType } from '../catalog/types';
import type { ClusterProfile } from '../cluster/types';
import { centsToUsd, formatCents, formatUsd } from '../format/money';
import type { GpuRequest } from '../request/types';
import { countNodes } from './choosePool';
import { nonCollidingConfigName } from './configNames';
import { HOURS_PER_MONTH } from '../capacity/poolCost';
import { roundDecimals } from '../numbers/roundDecimals';
import { WHOLE_GPU_RESOURCE, gib } from './modeDecision';
import { poolCostView } from './poolCost';
import { requestId } from './poolLimits';
import type { PoolOption } from './poolOption';
import { reusedPoolTaint, reusedPoolTaints } from './poolTaints';
import {
  configMapLabel,
  handWrittenConfigFor,
  isMissing,
  missingHandWrittenConfig,
  useHandWrittenConfig,
} from './handWrittenConfigs';
import {
  keepOperatorDefaultConfig,
  reconcileReusedPoolConfigs,
} from './reusedPoolConfigs';
import type { Plan, PlanCost, PlanDecision, RepoState } from './types';

/** The plan of the request on the chosen pool. */
export function planOnOption(
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

  // A cluster that reads its configs from a ConfigMap written by hand uses
  // the key it holds (handWrittenConfigs.ts); the product writes no config.
  const handWritten = handWrittenConfigFor(
    reused,
    decision,
    cluster,
    repoState,
  );
  if (isMissing(handWritten)) {
    // planForModel never offers such an option; refuse rather than label
    // nodes with a config their device plugin cannot find.
    throw missingHandWrittenConfig(handWritten, cluster);
  }
  if (handWritten) {
    useHandWrittenConfig(handWritten, sharing, modeLabels);
    explanation.push(
      `${handWritten.kind} config "${handWritten.name}": ${handWritten.kind === 'device-plugin' ? 'a key' : 'an entry'} of ConfigMap ${configMapLabel(handWritten.configMap)} (${handWritten.configMap.path}), written by hand, which the cluster's ${handWritten.kind === 'device-plugin' ? 'device plugin' : 'MIG manager'} reads; used as it is (the product never edits that ConfigMap, so this change writes no config).`,
    );
  } else {
    // Config names never point at different content already in the repository.
    const freeConfigName = (
      what: string,
      name: string,
      content: unknown,
      existing: Record<string, unknown> | undefined,
    ) => {
      const free = nonCollidingConfigName(
        name,
        content,
        existing,
        'spec.gpu.sharing',
        what,
      );
      if (free !== name) {
        explanation.push(
          `${what} "${name}" holds other content in the repository; using "${free}".`,
        );
      }
      return free;
    };
    if (sharing.deviceConfigName && sharing.devicePluginConfig) {
      const name = freeConfigName(
        'device-plugin config',
        sharing.deviceConfigName,
        sharing.devicePluginConfig,
        repoState?.devicePluginConfigs,
      );
      if (name !== sharing.deviceConfigName) {
        sharing.deviceConfigName = name;
        modeLabels[WELL_KNOWN_KEYS.devicePluginConfig] = name;
      }
    }
    if (sharing.migConfigName && sharing.migConfigEntries) {
      const name = freeConfigName(
        'mig-parted config',
        sharing.migConfigName,
        sharing.migConfigEntries,
        repoState?.migConfigs,
      );
      if (name !== sharing.migConfigName) {
        sharing.migConfigName = name;
        modeLabels[WELL_KNOWN_KEYS.migConfig] = name;
      }
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
    if (!handWritten) {
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
      labels,
      limits: capacity.limits,
      ledger: capacity.ledger,
      ...(capacity.limitFloor !== undefined
        ? { limitFloor: capacity.limitFloor }
        : {}),
    },
    leftPools: option.leftPools.map(({ pool, capacity: left, nodesAfter }) => ({
      name: pool.name,
      path: pool.path,
      ledger: left.ledger,
      ...(left.limitFloor !== undefined ? { limitFloor: left.limitFloor } : {}),
      limits: left.limits,
      nodesAfter,
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
