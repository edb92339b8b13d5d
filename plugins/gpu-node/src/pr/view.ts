/**
 * The data every PR template sees. Built here (not in templates) so an
 * organisation's template only arranges facts; it never recomputes them.
 * Free-text values are flattened to one line and stripped of markdown table
 * and HTML characters, so a value cannot break the body's structure.
 */
import {
  describeCost,
  formatGiB,
  formatReplicaGpuShare,
  formatLedger,
  formatRequestedGiB,
  formatUsd,
  gpuHoldingTitle,
  workloadShape,
  type GpuModel,
  type Plan,
  type PlanDecision,
  type WorkloadView,
} from '@gpu-gitops/plugin-gpu-common';
import type { FileChange } from '../changes/types';
import { changeView, type PullRequestChangeView } from './changeView';
import { rolloutChecklist } from './checklist';
import { isolationTradeOff } from './isolation';
import { migLayoutPicture } from './migLayoutPicture';

/** @public */
export interface PullRequestView {
  request: {
    name: string;
    namespace: string;
    owner: string;
    model: string;
    modelAuto: boolean;
    mode: string;
    replicas: number;
    vramGiB: number;
    gpusPerReplica: number;
    workload: string;
  };
  plan: {
    model: string;
    modelName: string;
    /** What it holds in GPU equivalents and what they are (`gpuHoldingTitle`), the title's words. */
    holding: string;
    instanceTypes: string[];
    instanceType: string;
    sharing: string;
    resourceName: string;
    resourcePerReplica: number;
    /** The pool's nodes after the change, and before it. */
    expectedNodes: number;
    nodesBefore: number;
    nodesChange: boolean;
    slicesPerNode: number;
    poolName: string;
    poolReused: boolean;
    limits: { name: string; value: number }[];
    /** The pool's request ledger after this change (one line). */
    ledger: string;
    capacityTypes: string;
    physicalGpus: number;
  };
  vram: {
    /** What a replica asks for, e.g. `3.5 GiB`. */
    asked: string;
    guaranteed: boolean;
    memoryMiB: number;
    summary: string;
  };
  /** The cost model's figures (capacity/poolCost.ts in gpu-common), formatted. */
  cost: {
    /** Attributed: this request's share of its pool's nodes, per month. */
    perMonth: string;
    perHour: string;
    /** Marginal: what the change adds to the bill, per month. */
    marginal: string;
    attributedText: string;
    marginalText: string;
    poolText: string;
    priceKnown: boolean;
    pool: {
      name: string;
      perMonth: string;
      idlePerMonth: string;
      idleUnits: number;
      capacityUnits: number;
    };
    /** Every request on the pool; with the idle row they add up to `pool.perMonth`. */
    shares: {
      request: string;
      units: number;
      perMonth: string;
      thisRequest: boolean;
    }[];
  };
  /** Why this model, slicing and pool, with the options weighed. */
  decisions: (PlanDecision & { title: string })[];
  isolation: string[];
  migLayout?: string;
  warnings: string[];
  explanation: string[];
  files: { path: string; action: string }[];
  checklist: string[];
  /** An existing workload: which container gets the GPU, and its replica count before → after. */
  existing?: {
    kind: string;
    name: string;
    container: string;
    containers: string[];
    /** `replicas`, or `parallelism` for Jobs and CronJobs. */
    replicasField: string;
    current: number;
    requested: number;
    /** True when the request changes the count. */
    changes: boolean;
  };
  /** Why the product updated this pull request on its own (base moved), if it did. */
  updateNote?: string;
  /** A request the repository holds already: what it held before, beside the plan. */
  change?: PullRequestChangeView;
}

/**
 *  What the PR needs to know about the existing workload a request patches.
 *
 * @public
 */
export interface ExistingWorkloadFacts {
  container: string;
  current: WorkloadView;
  /**
   * The workload as the repository holds it now (with the request's earlier
   * patch): the before of a change, as its diff shows it. `current` when absent.
   */
  merged?: WorkloadView;
}

export function safeText(value: string): string {
  return value
    .replace(/[\r\n]+/g, ' ')
    .replace(/[|<>]/g, c => ({ '|': '\\|', '<': '&lt;', '>': '&gt;' })[c]!);
}

function sharingSummary(plan: Plan): string {
  const s = plan.sharing;
  switch (s.mode) {
    case 'time-slicing':
      return `time-slicing, ${s.slicesPerGpu} replicas per GPU (config \`${s.deviceConfigName ?? '-'}\`)`;
    case 'mps':
      return `MPS, ${s.slicesPerGpu} clients per GPU, ${s.mpsPinnedMemoryMiB === undefined ? '?' : formatGiB(s.mpsPinnedMemoryMiB)} pinned per client (config \`${s.deviceConfigName ?? '-'}\`)`;
    case 'mig': {
      const layout = Object.entries(s.migLayout ?? {})
        .map(([p, n]) => `${n}× ${p}`)
        .join(' + ');
      return `MIG profile \`${s.migProfile}\` per replica; GPU layout ${layout || '-'} (mig-parted config \`${s.migConfigName ?? '-'}\`)`;
    }
    case 'exclusive':
      return `exclusive, ${plan.request.spec.gpu.gpusPerReplica} whole GPU(s) per replica`;
    case 'dra':
      return s.slicesPerGpu
        ? `Dynamic Resource Allocation (ResourceClaimTemplate), ${plan.resourcePerReplica} of the ${s.slicesPerGpu} consumable shares of a GPU per replica`
        : 'Dynamic Resource Allocation (ResourceClaimTemplate)';
    default:
      return s.mode;
  }
}

function vramSummary(plan: Plan): string {
  const p = plan.perReplica;
  const asked = formatRequestedGiB(p.vramGiB);
  const gets = formatGiB(p.memoryMiB);
  if (p.vramGuaranteed) {
    return `Each replica needs ${asked} and gets **${gets} guaranteed** (${formatReplicaGpuShare(p)}) — it fits.`;
  }
  return `Each replica needs ${asked}; replicas **share** ${gets} per GPU slot with **no guarantee** — memory is not isolated, so the fit holds only if every replica stays within its share.`;
}

function costView(plan: Plan): PullRequestView['cost'] {
  const id = `${plan.request.metadata.namespace}/${plan.request.metadata.name}`;
  const text = describeCost(plan.cost, id, plan.resourceName);
  const pool = plan.cost.pool;
  return {
    perMonth: formatUsd(plan.cost.usdPerMonth),
    perHour: formatUsd(plan.cost.usdPerHour),
    marginal: formatUsd(plan.cost.marginalUsdPerMonth),
    attributedText: text.attributed,
    marginalText: text.marginal,
    poolText: text.pool,
    priceKnown: plan.cost.priceKnown,
    pool: {
      name: pool.name,
      perMonth: formatUsd(pool.usdPerMonth),
      idlePerMonth: formatUsd(pool.idleUsdPerMonth),
      idleUnits: pool.idleUnits,
      capacityUnits: pool.capacityUnits,
    },
    shares: pool.shares.map(s => ({
      request: safeText(s.request),
      units: s.units,
      perMonth: formatUsd(s.usdPerMonth),
      thisRequest: s.request === id,
    })),
  };
}

/** The count the repository holds now, which the diff's minus side shows. */
function replicasAsMerged(existing: ExistingWorkloadFacts): number {
  return (existing.merged ?? existing.current).replicas;
}

export function buildPullRequestView(input: {
  plan: Plan;
  files: Pick<FileChange, 'path' | 'action'>[];
  model?: GpuModel;
  existing?: ExistingWorkloadFacts;
  updateNote?: string;
  poolLabel?: string;
}): PullRequestView {
  const { plan, model } = input;
  const spec = plan.request.spec;
  const workload = spec.workload.existing
    ? `patch existing ${spec.workload.existing.kind} \`${spec.workload.existing.name}\``
    : `new Deployment, image \`${spec.workload.image ?? ''}\``;
  return {
    request: {
      name: plan.request.metadata.name,
      namespace: plan.request.metadata.namespace,
      owner: safeText(spec.owner),
      model: spec.gpu.model,
      modelAuto: spec.gpu.model === 'auto',
      mode: spec.gpu.sharing,
      replicas: spec.gpu.replicas,
      vramGiB: spec.gpu.vramGiB,
      gpusPerReplica: spec.gpu.gpusPerReplica,
      workload: safeText(workload),
    },
    plan: planView(plan, model),
    vram: {
      asked: formatRequestedGiB(plan.perReplica.vramGiB),
      guaranteed: plan.perReplica.vramGuaranteed,
      memoryMiB: plan.perReplica.memoryMiB,
      summary: vramSummary(plan),
    },
    cost: costView(plan),
    decisions: decisionsView(plan),
    isolation: isolationTradeOff(plan),
    migLayout:
      plan.sharing.mode === 'mig' && model && plan.sharing.migLayout
        ? migLayoutPicture(model, plan.sharing.migLayout)
        : undefined,
    warnings: plan.warnings.map(safeText),
    explanation: plan.explanation.map(safeText),
    files: [...input.files]
      .sort((a, b) => a.path.localeCompare(b.path))
      .map(f => ({ path: f.path, action: f.action })),
    checklist: rolloutChecklist(plan, undefined, input.poolLabel),
    ...(input.existing && spec.workload.existing
      ? {
          existing: existingView(
            input.existing,
            spec.workload.existing,
            spec.gpu.replicas,
          ),
        }
      : {}),
    ...(input.updateNote ? { updateNote: safeText(input.updateNote) } : {}),
    ...(plan.previous ? { change: changeView(plan) } : {}),
  };
}

/** The plan as the body shows it: model, what the request holds, nodes, pool, limits, ledger. */
function planView(
  plan: Plan,
  model: GpuModel | undefined,
): PullRequestView['plan'] {
  const spec = plan.request.spec;
  return {
    model: plan.pool.gpuModel,
    modelName: safeText(model?.displayName ?? plan.pool.gpuModel),
    holding: safeText(
      gpuHoldingTitle({
        replicas: spec.gpu.replicas,
        unitsPerReplica: plan.resourcePerReplica,
        gpuSharePerReplica: plan.perReplica.gpuShare,
        sharingMode: plan.sharing.mode,
        migProfile: plan.sharing.migProfile,
        modelName: model?.displayName ?? plan.pool.gpuModel,
      }),
    ),
    instanceTypes: plan.pool.instanceTypes,
    instanceType: plan.nodes.instanceType,
    sharing: sharingSummary(plan),
    resourceName: plan.resourceName,
    resourcePerReplica: plan.resourcePerReplica,
    expectedNodes: plan.nodes.expected,
    nodesBefore: plan.cost.pool.nodesBefore ?? plan.nodes.expected,
    nodesChange:
      (plan.cost.pool.nodesBefore ?? plan.nodes.expected) !==
      plan.nodes.expected,
    slicesPerNode: plan.nodes.slicesPerNode,
    poolName: plan.pool.name,
    poolReused: plan.pool.reused,
    limits: Object.entries(plan.pool.limits)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([name, value]) => ({ name, value })),
    ledger: safeText(formatLedger(plan.pool.ledger)),
    capacityTypes: plan.pool.capacityTypes.join(', '),
    physicalGpus: plan.physicalGpus,
  };
}

/** Why this model, this sharing and this pool, each option weighed, as safe text. */
function decisionsView(plan: Plan): PullRequestView['decisions'] {
  return [
    { title: 'Model', ...plan.decisions.model },
    { title: 'Sharing', ...plan.decisions.sharing },
    { title: 'Pool', ...plan.decisions.pool },
  ].map(d => ({
    ...d,
    choice: safeText(d.choice),
    reason: safeText(d.reason),
    considered: d.considered.map(c => ({
      option: safeText(c.option),
      chosen: c.chosen,
      reason: safeText(c.reason),
    })),
  }));
}

/** The existing workload the request patches: its containers and its replicas as merged, before and after. */
function existingView(
  facts: ExistingWorkloadFacts,
  existing: NonNullable<Plan['request']['spec']['workload']['existing']>,
  requested: number,
): NonNullable<PullRequestView['existing']> {
  return {
    kind: existing.kind,
    name: existing.name,
    container: facts.container,
    containers: facts.current.containers.map(c => c.name),
    replicasField: workloadShape(existing.kind).replicasField,
    current: replicasAsMerged(facts),
    requested: requested,
    changes: replicasAsMerged(facts) !== requested,
  };
}
