/**
 * How an adopted pool's GPUs are really shared, read from every place the
 * repository can set it, and the unit of every count it carries. The
 * device plugin on the pool's nodes decides what a pod gets:
 *
 * 1. Bottlerocket's own device plugin, when the pool's node class runs
 *    Bottlerocket and its user data sets a sharing strategy;
 * 2. the NVIDIA device plugin's config the pool's nodes select with the
 *    `nvidia.com/device-plugin.config` label (read by `parsePools`);
 * 3. the GPU Operator's default config, for nodes without that label.
 *
 * Hand-written NodeOverlays tell Karpenter how many units a node offers:
 * where they count more than one per GPU and nothing above shares the GPUs,
 * the pool is adopted as sharing them (the counts are slices, and pods are
 * packed so), and the report says the two disagree. A count in slices is
 * never taken for GPUs: the limit floor the product keeps is in GPUs.
 */
import {
  WHOLE_GPU_RESOURCE,
  type PoolState,
} from '@gpu-gitops/plugin-gpu-common';
import { findOurLabel, POOL_LABEL_SUFFIXES } from '../../repo/poolLabels';
import { getIn, stringRecord, type PlainObject } from '../../repo/yamlObjects';
import { objectLabel, type ImportFinding } from '../convert/findings';
import { bottlerocketSharing } from './bottlerocketSharing';
import { sharedResource, type NodeSharing } from './nodeSharing';
import { overlayUnitsPerGpu, type OverlayCount } from './overlaySlices';

export interface SharingSources {
  /** The pool's node class, when the repository holds it. */
  nodeClass?: PlainObject;
  /** The device plugin's default config's sharing on every GPU node: the GPU Operator's (`operatorDefaultSharing`), else a standalone release's (`standaloneDefaultSharing`). */
  operatorDefault?: NodeSharing;
  /** The hand-written NodeOverlays' counts for the pool (`overlayCounts`). */
  overlays: OverlayCount[];
}

export interface ObservedSharing {
  pool: PoolState;
  /** Where the sharing was read; undefined for whole GPUs nothing shares. */
  sharingSource?: string;
  /** Every GPU count the pool carries, with its unit (slices or GPUs). */
  counts: string[];
  findings: ImportFinding[];
}

const SHARED = 'nvidia.com/gpu.shared';

/** Whether the pool says itself how it shares (the product's keys, a MIG config). */
function toldByPool(nodePool: PlainObject, pool: PoolState): boolean {
  const ours = {
    ...stringRecord(getIn(nodePool, 'metadata', 'annotations')),
    ...stringRecord(getIn(nodePool, 'metadata', 'labels')),
    ...stringRecord(getIn(nodePool, 'spec', 'template', 'metadata', 'labels')),
  };
  return (
    findOurLabel(ours, POOL_LABEL_SUFFIXES.sharing) !== undefined ||
    pool.migConfigName !== undefined
  );
}

/** The device plugin's sharing on the pool's nodes (1–3 above). */
function devicePluginSharing(
  pool: PoolState,
  sources: SharingSources,
  findings: ImportFinding[],
): NodeSharing | undefined {
  const bottlerocket = sources.nodeClass
    ? bottlerocketSharing(sources.nodeClass)
    : undefined;
  if (bottlerocket && 'unreadable' in bottlerocket) {
    findings.push({
      kind: 'not-understood',
      object: objectLabel(sources.nodeClass!),
      field: 'spec.userData',
      message: `${bottlerocket.unreadable}: how Bottlerocket's device plugin shares the GPUs of pool ${pool.name} cannot be told`,
    });
  } else if (bottlerocket) {
    return bottlerocket;
  }
  if (pool.sharingMode === 'time-slicing' || pool.sharingMode === 'mps') {
    return {
      mode: pool.sharingMode,
      ...(pool.slicesPerGpu ? { slicesPerGpu: pool.slicesPerGpu } : {}),
      renameByDefault: pool.resourceName === SHARED,
      source: `device-plugin config "${pool.deviceConfigName}" (the pool's nvidia.com/device-plugin.config label)`,
    };
  }
  return pool.deviceConfigName === undefined
    ? sources.operatorDefault
    : undefined;
}

/** Sharing implied by overlays counting several units per GPU, where no config shares. */
function overlaySharing(
  pool: PoolState,
  overlays: OverlayCount[],
  findings: ImportFinding[],
): NodeSharing | undefined {
  for (const resource of [SHARED, WHOLE_GPU_RESOURCE]) {
    const units = overlayUnitsPerGpu(overlays, resource);
    if (units === undefined || units <= 1) continue;
    const names = overlays
      .filter(o => o.resource === resource)
      .map(o => o.overlay);
    findings.push({
      kind: 'note',
      object: `NodePool "${pool.name}"`,
      message: `${names.join(', ')} count ${units} ${resource} per GPU, but no device-plugin config the import found shares this pool's GPUs: adopted as time-slicing with ${units} slices per GPU, as Karpenter packs pods on it; check the device plugin on its nodes`,
    });
    return {
      mode: 'time-slicing',
      slicesPerGpu: units,
      renameByDefault: resource === SHARED,
      source: `${names.join(', ')} (capacity in slices)`,
    };
  }
  return undefined;
}

/** The pool as its nodes share their GPUs. */
function sharedPool(pool: PoolState, sharing: NodeSharing): PoolState {
  const slicesPerGpu = sharing.slicesPerGpu ?? pool.slicesPerGpu;
  return {
    ...pool,
    sharingMode: sharing.mode,
    ...(slicesPerGpu !== undefined ? { slicesPerGpu } : {}),
    resourceName:
      pool.resourceName === WHOLE_GPU_RESOURCE
        ? sharedResource(sharing)
        : pool.resourceName,
  };
}

/** Units per GPU of a count of `resource` on the pool: slices, or 1 (GPUs). */
function unitsPerGpu(
  resource: string,
  pool: PoolState,
  overlays: OverlayCount[],
): number | undefined {
  const counted = overlayUnitsPerGpu(overlays, resource);
  if (counted !== undefined) return counted;
  if (resource === SHARED) return pool.slicesPerGpu;
  // Without an overlay, Karpenter counts the GPUs the cloud reports.
  return resource === WHOLE_GPU_RESOURCE ? 1 : undefined;
}

const unitWord = (units: number | undefined) => {
  if (units === undefined) return 'units whose size per GPU cannot be told';
  return units === 1 ? 'GPUs' : `slices (${units} per GPU)`;
};

/** The pool's counts in words, and its limit floor in GPUs. */
function countsOf(
  pool: PoolState,
  overlays: OverlayCount[],
): { counts: string[]; floorGpus?: number } {
  const counts: string[] = [];
  const floors = new Map<string, number>();
  for (const [resource, count] of Object.entries(pool.limits ?? {})) {
    if (!resource.startsWith('nvidia.com/')) continue;
    const units = unitsPerGpu(resource, pool, overlays);
    const gpus = units ? Math.ceil(count / units) : undefined;
    counts.push(
      `spec.limits ${resource}: ${count} counts ${unitWord(units)}${units && units > 1 ? `: ${gpus} GPUs` : ''}`,
    );
    if (gpus !== undefined) floors.set(resource, gpus);
  }
  // The product keeps a floor of GPUs: from the GPU limit, else the slices'.
  const floorGpus = floors.get(WHOLE_GPU_RESOURCE) ?? floors.get(SHARED);
  for (const o of overlays) {
    const units = o.gpusPerNode ? o.perNode / o.gpusPerNode : undefined;
    counts.push(
      `${o.overlay} capacity ${o.resource}: ${o.perNode} counts ${unitWord(units)}${o.gpusPerNode ? ` on nodes of ${o.gpusPerNode} GPUs` : ''}`,
    );
  }
  return { counts, ...(floorGpus !== undefined ? { floorGpus } : {}) };
}

export function observedSharing(
  pool: PoolState,
  nodePool: PlainObject,
  sources: SharingSources,
): ObservedSharing {
  const findings: ImportFinding[] = [];
  let observed = pool;
  let sharingSource: string | undefined;
  if (!toldByPool(nodePool, pool)) {
    const sharing =
      devicePluginSharing(pool, sources, findings) ??
      overlaySharing(pool, sources.overlays, findings);
    if (sharing) {
      observed = sharedPool(pool, sharing);
      sharingSource = sharing.source;
      const counted = overlayUnitsPerGpu(
        sources.overlays,
        observed.resourceName,
      );
      if (
        counted !== undefined &&
        observed.slicesPerGpu !== undefined &&
        counted !== observed.slicesPerGpu
      ) {
        findings.push({
          kind: 'note',
          object: `NodePool "${pool.name}"`,
          message: `its NodeOverlays count ${counted} ${observed.resourceName} per GPU, while ${sharing.source} gives ${observed.slicesPerGpu}: Karpenter sizes its nodes by the overlays`,
        });
      }
    }
  }
  const { counts, floorGpus } = countsOf(observed, sources.overlays);
  if (floorGpus !== undefined)
    observed = { ...observed, limitFloor: floorGpus };
  return {
    pool: observed,
    ...(sharingSource ? { sharingSource } : {}),
    counts,
    findings,
  };
}
