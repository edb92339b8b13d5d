/**
 * The GPU workloads an import recognises, as the requests the product would
 * have written for them: each runs on exactly one adopted pool (the one GPU
 * pool its pods can land on, `workloadLanding.ts`) and the pool's GPU model
 * is in the catalog. VRAM per replica is what a
 * replica gets on the pool (a time slice, a MIG instance, whole GPUs).
 */
import {
  findModel,
  gpuModelsPoolAllows,
  isWorkloadKind,
  parseGpuRequest,
  type ClusterProfile,
  type GpuCatalog,
  type GpuModel,
  type GpuRequest,
  type LandingModel,
  type LedgerEntry,
  type PoolState,
  type WorkloadKind,
  type WorkloadState,
} from '@gpu-gitops/plugin-gpu-common';
import {
  asKubernetesObject,
  getIn,
  isPlainObject,
  type ParsedDocument,
} from '../repo/yamlObjects';
import type { ImportFinding } from './convert/findings';
import { LEGACY_POOL_LABEL, workloadLanding } from './workloadLanding';

export interface ImportedRequest {
  request: GpuRequest;
  pool: string;
  ledgerEntry: LedgerEntry;
  /** The workload's file. */
  path: string;
}

export interface RecogniseOptions {
  /** The cluster's profile: its name for the records, its provider for a pool's machines. */
  cluster: Pick<ClusterProfile, 'name' | 'provider' | 'clusterApi'>;
  owner: string;
  catalog: GpuCatalog;
  /** Where the cluster's GPU pods can land (`importLanding.ts`). */
  landing: LandingModel;
}

/** Rounded down to 0.1 GiB: a record never claims more memory than a replica gets. */
const gibDown = (mib: number) => Math.floor((mib / 1024) * 10) / 10;

function workloadDocument(
  docs: ParsedDocument[],
  workload: WorkloadState,
): ParsedDocument | undefined {
  return docs.find(d => {
    const o = asKubernetesObject(d.value);
    return (
      d.path === workload.path &&
      o !== undefined &&
      isWorkloadKind(o.kind) &&
      o.metadata.name === workload.name
    );
  });
}

function podSpecOf(value: unknown): unknown {
  return getIn(value, 'kind') === 'CronJob'
    ? getIn(value, 'spec', 'jobTemplate', 'spec', 'template', 'spec')
    : getIn(value, 'spec', 'template', 'spec');
}

/**
 * Why a workload's pool has no model to record: its requirements allow
 * machines of several (gpu-common `gpuModelsPoolAllows`), so its pods may
 * get any of them, or its one model is not in the catalog.
 */
function unknownModelReason(
  pool: PoolState,
  options: RecogniseOptions,
): string {
  const models = gpuModelsPoolAllows(pool, options.catalog, options.cluster);
  return models.length > 1
    ? `pool ${pool.name} launches GPUs of ${models.length} models (${models.join(', ')}): which one its pods get is not known, and the import records no model it cannot tell (split the pool into one NodePool per model, then import again)`
    : `the GPU model of pool ${pool.name} is not in the catalog`;
}

export function recogniseWorkloads(
  docs: ParsedDocument[],
  workloads: WorkloadState[],
  pools: PoolState[],
  options: RecogniseOptions,
): { requests: ImportedRequest[]; findings: ImportFinding[] } {
  const requests: ImportedRequest[] = [];
  const findings: ImportFinding[] = [];
  for (const workload of workloads) {
    const doc = workloadDocument(docs, workload);
    const object = asKubernetesObject(doc?.value);
    const label = `${String(object?.kind ?? 'workload')} "${workload.id}"`;
    const skip = (message: string) =>
      findings.push({
        kind: 'not-understood',
        path: workload.path,
        object: label,
        message: `${message}; no request record is written for it`,
      });
    if (!doc || !object || !isWorkloadKind(object.kind)) {
      skip('only Deployments, StatefulSets, Jobs and CronJobs become requests');
      continue;
    }
    const podSpec = podSpecOf(object);
    const landing = workloadLanding(podSpec, options.landing);
    if (landing.kind === 'several') {
      skip(
        `its pods can land on pools ${landing.pools.join(', ')}: which one it runs on is ambiguous, and the import does not guess (select one pool's label, e.g. karpenter.sh/nodepool: ${landing.pools[0]})`,
      );
      continue;
    }
    const pool =
      landing.kind === 'one'
        ? pools.find(p => p.name === landing.pool)
        : undefined;
    if (!pool) {
      const why =
        landing.kind === 'one'
          ? `its pods land on pool ${landing.pool}, which the import does not adopt`
          : landing.reasons.join('; ');
      skip(
        `it runs on no GPU pool of the cluster the import adopted${why ? ` (${why})` : ''}`,
      );
      continue;
    }
    findings.push(...legacyPoolNotes(podSpec, workload.path, label));
    const model = pool.gpuModel
      ? findModel(options.catalog, pool.gpuModel)
      : undefined;
    if (!model) {
      skip(unknownModelReason(pool, options));
      continue;
    }
    const vramMiB = vramPerReplicaMiB(pool, model, workload);
    if (typeof vramMiB === 'string') {
      skip(vramMiB);
      continue;
    }
    const request = requestOf(workload, object.kind, pool, model, {
      vramMiB,
      container: gpuContainerName(podSpec, workload.resourceName),
      options,
    });
    requests.push({
      request,
      pool: pool.name,
      path: workload.path,
      ledgerEntry: {
        request: workload.id,
        replicas: workload.replicas,
        unitsPerReplica: workload.perReplica,
      },
    });
  }
  return { requests, findings };
}

/**
 * The VRAM a replica gets on the pool, as its request would ask: its MIG
 * instance's, its slice's, or its whole GPUs'; why not, when the pool's
 * layout or slicing is unknown.
 */
function vramPerReplicaMiB(
  pool: PoolState,
  model: GpuModel,
  workload: WorkloadState,
): number | string {
  if (pool.sharingMode === 'mig') {
    const profile = model.mig?.profiles.find(p => p.name === pool.migProfile);
    return profile
      ? profile.memoryMiB
      : `the MIG profile of pool ${pool.name} is unknown`;
  }
  if (pool.sharingMode === 'time-slicing' || pool.sharingMode === 'mps') {
    return pool.slicesPerGpu
      ? model.memoryMiB / pool.slicesPerGpu
      : `the slices per GPU of pool ${pool.name} are unknown`;
  }
  return model.memoryMiB * workload.perReplica;
}

/** The container whose limits ask for the GPU resource, if it has a name. */
function gpuContainerName(
  podSpec: unknown,
  resourceName: string,
): string | undefined {
  const containers = getIn(podSpec, 'containers');
  const container = (Array.isArray(containers) ? containers : []).find(
    c =>
      isPlainObject(c) &&
      Object.keys(
        (getIn(c, 'resources', 'limits') as object | undefined) ?? {},
      ).includes(resourceName),
  ) as { name?: unknown } | undefined;
  return typeof container?.name === 'string' ? container.name : undefined;
}

/** A v1alpha5 pool selector on a v1 cluster: said, never changed (the import leaves workloads as they are). */
function legacyPoolNotes(
  podSpec: unknown,
  path: string,
  label: string,
): ImportFinding[] {
  const legacyPool = getIn(podSpec, 'nodeSelector', LEGACY_POOL_LABEL);
  if (typeof legacyPool !== 'string') return [];
  return [
    {
      kind: 'note',
      path,
      object: label,
      field: `nodeSelector.${LEGACY_POOL_LABEL}`,
      value: legacyPool,
      message: `v1 nodes carry karpenter.sh/nodepool, not ${LEGACY_POOL_LABEL}: change the node selector to karpenter.sh/nodepool: ${legacyPool} (the import leaves workloads as they are)`,
    },
  ];
}

/** The request the product would have written for the workload on its pool. */
function requestOf(
  workload: WorkloadState,
  kind: WorkloadKind,
  pool: PoolState,
  model: GpuModel,
  found: {
    vramMiB: number;
    container: string | undefined;
    options: RecogniseOptions;
  },
): GpuRequest {
  const { vramMiB, container, options } = found;
  return parseGpuRequest({
    apiVersion: 'gpu.backstage.io/v1alpha1',
    kind: 'GpuRequest',
    metadata: { name: workload.name, namespace: workload.namespace },
    spec: {
      owner: options.owner,
      cluster: options.cluster.name,
      gpu: {
        model: model.id,
        sharing: pool.sharingMode,
        replicas: workload.replicas,
        vramGiB: gibDown(vramMiB),
        ...(pool.sharingMode === 'exclusive'
          ? { gpusPerReplica: workload.perReplica }
          : {}),
        ...(pool.sharingMode === 'time-slicing'
          ? { slicesPerGpu: pool.slicesPerGpu }
          : {}),
      },
      workload: {
        existing: {
          kind,
          name: workload.name,
          ...(container ? { container } : {}),
        },
      },
      capacityTypes: pool.capacityTypes.length
        ? pool.capacityTypes
        : ['on-demand'],
    },
  });
}
