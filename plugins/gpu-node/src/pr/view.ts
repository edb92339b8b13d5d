/**
 * The data every PR template sees. Built here (not in templates) so an
 * organisation's template only arranges facts; it never recomputes them.
 * Free-text values are flattened to one line and stripped of markdown table
 * and HTML characters, so a value cannot break the body's structure.
 */
import {
  formatLedger,
  workloadShape,
  type GpuModel,
  type Plan,
  type WorkloadView,
} from '@gpu-gitops/plugin-gpu-common';
import type { FileChange } from '../changes/types';
import { rolloutChecklist } from './checklist';
import { isolationTradeOff } from './isolation';
import { migLayoutPicture } from './migLayoutPicture';

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
    instanceTypes: string[];
    instanceType: string;
    sharing: string;
    resourceName: string;
    resourcePerReplica: number;
    expectedNodes: number;
    slicesPerNode: number;
    poolName: string;
    poolReused: boolean;
    limits: { name: string; value: number }[];
    /** The pool's request ledger after this change (one line). */
    ledger: string;
    capacityTypes: string;
    physicalGpus: number;
  };
  vram: { guaranteed: boolean; memoryMiB: number; summary: string };
  cost: { perMonth: string; perHour: string };
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
}

/** What the PR needs to know about the existing workload a request patches. */
export interface ExistingWorkloadFacts {
  container: string;
  current: WorkloadView;
}

export function safeText(value: string): string {
  return value
    .replace(/[\r\n]+/g, ' ')
    .replace(/[|<>]/g, c => ({ '|': '\\|', '<': '&lt;', '>': '&gt;' })[c]!);
}

const usd = (n: number) =>
  `$${n.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

function sharingSummary(plan: Plan): string {
  const s = plan.sharing;
  switch (s.mode) {
    case 'time-slicing':
      return `time-slicing, ${s.slicesPerGpu} replicas per GPU (config \`${s.deviceConfigName ?? '-'}\`)`;
    case 'mps':
      return `MPS, ${s.slicesPerGpu} clients per GPU, ${s.mpsPinnedMemoryMiB ?? '?'} MiB pinned per client (config \`${s.deviceConfigName ?? '-'}\`)`;
    case 'mig': {
      const layout = Object.entries(s.migLayout ?? {})
        .map(([p, n]) => `${n}× ${p}`)
        .join(' + ');
      return `MIG profile \`${s.migProfile}\` per replica; GPU layout ${layout || '-'} (mig-parted config \`${s.migConfigName ?? '-'}\`)`;
    }
    case 'exclusive':
      return `exclusive, ${plan.request.spec.gpu.gpusPerReplica} whole GPU(s) per replica`;
    case 'dra':
      return 'Dynamic Resource Allocation (ResourceClaimTemplate)';
    default:
      return s.mode;
  }
}

function vramSummary(plan: Plan): string {
  const p = plan.perReplica;
  const gib = (p.memoryMiB / 1024).toFixed(1).replace(/\.0$/, '');
  if (p.vramGuaranteed) {
    return `Each replica needs ${p.vramGiB} GiB and gets **${gib} GiB guaranteed** (${(p.gpuShare * 100).toFixed(0)} % of a GPU) — it fits.`;
  }
  return `Each replica needs ${p.vramGiB} GiB; replicas **share** ${gib} GiB per GPU slot with **no guarantee** — memory is not isolated, so the fit holds only if every replica stays within its share.`;
}

export function buildPullRequestView(input: {
  plan: Plan;
  files: Pick<FileChange, 'path' | 'action'>[];
  model?: GpuModel;
  existing?: ExistingWorkloadFacts;
  updateNote?: string;
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
    plan: {
      model: plan.pool.gpuModel,
      modelName: safeText(model?.displayName ?? plan.pool.gpuModel),
      instanceTypes: plan.pool.instanceTypes,
      instanceType: plan.nodes.instanceType,
      sharing: sharingSummary(plan),
      resourceName: plan.resourceName,
      resourcePerReplica: plan.resourcePerReplica,
      expectedNodes: plan.nodes.expected,
      slicesPerNode: plan.nodes.slicesPerNode,
      poolName: plan.pool.name,
      poolReused: plan.pool.reused,
      limits: Object.entries(plan.pool.limits)
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([name, value]) => ({ name, value })),
      ledger: safeText(formatLedger(plan.pool.ledger)),
      capacityTypes: plan.pool.capacityTypes.join(', '),
      physicalGpus: plan.physicalGpus,
    },
    vram: {
      guaranteed: plan.perReplica.vramGuaranteed,
      memoryMiB: plan.perReplica.memoryMiB,
      summary: vramSummary(plan),
    },
    cost: {
      perMonth: usd(plan.cost.usdPerMonth),
      perHour: usd(plan.cost.usdPerHour),
    },
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
    checklist: rolloutChecklist(plan),
    ...(input.existing && spec.workload.existing
      ? {
          existing: {
            kind: spec.workload.existing.kind,
            name: spec.workload.existing.name,
            container: input.existing.container,
            containers: input.existing.current.containers.map(c => c.name),
            replicasField: workloadShape(spec.workload.existing.kind)
              .replicasField,
            current: input.existing.current.replicas,
            requested: spec.gpu.replicas,
            changes: input.existing.current.replicas !== spec.gpu.replicas,
          },
        }
      : {}),
    ...(input.updateNote ? { updateNote: safeText(input.updateNote) } : {}),
  };
}
