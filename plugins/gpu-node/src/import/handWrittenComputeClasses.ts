/**
 * A GKE team's own GPU ComputeClasses, read for the import: a class with a
 * GPU rule (`spec.priorities[].gpu.type`, as Google's "About custom compute
 * classes" and its CRD reference write it) and none of the product's pool
 * annotations is a GPU pool the import adopts. GKE's device plugin shares
 * the GPUs as the rule's `gpuSharing` says and always advertises
 * `nvidia.com/gpu` (time-sharing, MPS and MIG partitions alike; gpu-common
 * `manifests/computeClass.ts`), so the pool's sharing is read there, with
 * its units; a class has no limits, so no limit floor. A class whose GPU
 * rules disagree (two accelerators, two sharings) is reported, not adopted.
 */
import {
  computeClassNodes,
  gkeModelOfAccelerator,
  WHOLE_GPU_RESOURCE,
  type CapacityType,
  type PoolState,
  type SharingMode,
} from '@gpu-gitops/plugin-gpu-common';
import { COMPUTE_CLASS_KIND, isGpuComputeClass } from '../repo/computeClassPools';
import { isPlainObject, type ParsedDocument } from '../repo/yamlObjects';
import type { ImportFinding } from './convert/findings';
import type { ObservedSharing } from './sharing/observedSharing';

/** A hand-written GPU class, as the import adopts it. */
export interface HandWrittenClass {
  document: ParsedDocument;
  observed: ObservedSharing;
}

interface GpuRule {
  machineType?: string;
  machineFamily?: string;
  gpu: {
    type: string;
    count?: number;
    gpuSharing?: {
      sharingStrategy?: string;
      maxSharedClientsPerGPU?: number;
      gpuPartitionSize?: string;
    };
  };
}

function gpuRulesOf(value: unknown): GpuRule[] {
  const priorities = (value as { spec?: { priorities?: unknown } })?.spec
    ?.priorities;
  if (!Array.isArray(priorities)) return [];
  return priorities.filter(
    (rule): rule is GpuRule =>
      isPlainObject(rule) &&
      isPlainObject(rule.gpu) &&
      typeof rule.gpu.type === 'string',
  );
}

/** How a rule's GPUs are shared: mode, slices per GPU, MIG partition. */
function sharingOf(rule: GpuRule): {
  mode: SharingMode;
  slicesPerGpu?: number;
  migProfile?: string;
} {
  const sharing = rule.gpu.gpuSharing;
  if (sharing?.gpuPartitionSize) {
    return { mode: 'mig', migProfile: String(sharing.gpuPartitionSize) };
  }
  if (sharing?.sharingStrategy) {
    return {
      mode: sharing.sharingStrategy === 'MPS' ? 'mps' : 'time-slicing',
      slicesPerGpu: Number(sharing.maxSharedClientsPerGPU),
    };
  }
  return { mode: 'exclusive' };
}

const sameSharing = (a: GpuRule, b: GpuRule) =>
  JSON.stringify(sharingOf(a)) === JSON.stringify(sharingOf(b));

/** Every count the class states, with its unit. */
function countsOf(rules: GpuRule[], name: string): string[] {
  const counts = rules.map(rule => {
    const machine = rule.machineType ?? `machine family ${rule.machineFamily}`;
    return `${rule.gpu.count ?? 1} GPU(s) per node on ${machine} (gpu.count)`;
  });
  const { slicesPerGpu } = sharingOf(rules[0]);
  if (slicesPerGpu !== undefined) {
    counts.push(
      `${slicesPerGpu} slices per GPU (gpuSharing.maxSharedClientsPerGPU of ComputeClass "${name}")`,
    );
  }
  return [...new Set(counts)];
}

/** Why the class is not adopted; undefined when it is. */
function refusal(rules: GpuRule[], model: string | undefined) {
  if (new Set(rules.map(r => r.gpu.type)).size > 1) {
    return `its GPU rules ask for ${[...new Set(rules.map(r => r.gpu.type))].join(' and ')}: a pool has one GPU model`;
  }
  if (!rules.every(r => sameSharing(r, rules[0]))) {
    return 'its GPU rules share their GPUs differently (gpuSharing): a pool shares its GPUs one way';
  }
  if (!model) {
    return `the catalog sells no GPU of GKE accelerator type ${rules[0].gpu.type}`;
  }
  return undefined;
}

/** The class read as a pool: its model, sharing, machines and node taints. */
function poolOf(
  document: ParsedDocument,
  name: string,
  rules: GpuRule[],
  model: string,
): PoolState {
  const nodes = computeClassNodes(document.value);
  const sharing = sharingOf(rules[0]);
  return {
    name,
    path: document.path,
    gpuModel: model,
    sharingMode: sharing.mode,
    resourceName: WHOLE_GPU_RESOURCE,
    instanceTypes: nodes.machineTypes,
    // computeClassNodes reads `spot` as spot, else on-demand.
    capacityTypes: nodes.capacityTypes as CapacityType[],
    taints: nodes.taints,
    managed: false,
    ...(sharing.slicesPerGpu !== undefined
      ? { slicesPerGpu: sharing.slicesPerGpu }
      : {}),
    ...(sharing.migProfile ? { migProfile: sharing.migProfile } : {}),
  };
}

/**
 * The team's GPU ComputeClasses of the cluster's folder, each adopted as a
 * pool or reported with why not; classes without a GPU rule, and the
 * product's own, are left alone.
 */
export function handWrittenComputeClasses(
  documents: readonly ParsedDocument[],
  findings: ImportFinding[],
): HandWrittenClass[] {
  const out: HandWrittenClass[] = [];
  for (const document of documents) {
    const value = document.value as { kind?: unknown; metadata?: { name?: unknown } };
    if (value?.kind !== COMPUTE_CLASS_KIND || isGpuComputeClass(value)) continue;
    const rules = gpuRulesOf(value);
    if (rules.length === 0) continue;
    const name = String(value.metadata?.name ?? '');
    const model = gkeModelOfAccelerator(rules[0].gpu.type);
    const why = refusal(rules, model);
    if (why) {
      findings.push({
        kind: 'note',
        path: document.path,
        object: `ComputeClass "${name}"`,
        message: `not adopted as a GPU pool: ${why}`,
      });
      continue;
    }
    const pool = poolOf(document, name, rules, model!);
    out.push({
      document,
      observed: {
        pool,
        ...(pool.sharingMode !== 'exclusive'
          ? { sharingSource: `gpuSharing of ComputeClass "${name}"` }
          : {}),
        counts: countsOf(rules, name),
        findings: [],
      },
    });
  }
  return out;
}
