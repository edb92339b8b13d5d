/**
 * One workload's GPU allocation. With the stored GpuRequest the numbers come
 * from gpu-common's planner (the same function that wrote the pull request
 * body, so they match it); without one they are derived from the workload's
 * resource limits and its pool.
 */
import {
  findInstanceType,
  HOURS_PER_MONTH,
  plan,
  type GpuAllocation,
  type GpuCatalog,
  type PoolState,
  type RepoState,
} from '@gpu-gitops/plugin-gpu-common';
import type { IndexedWorkload, IndexSnapshot } from '../repoIndex/RepoIndex';
import { migLayoutOf, modelOf, unitsPerGpu } from './poolUnits';

function round(value: number, digits: number): number {
  const factor = 10 ** digits;
  return Math.round((value + Number.EPSILON) * factor) / factor;
}

export function computeAllocation(
  workload: IndexedWorkload,
  snapshot: IndexSnapshot,
  catalog: GpuCatalog,
): GpuAllocation {
  const cluster = snapshot.clusters.get(workload.cluster);
  const pool = cluster?.repoState.pools.find(p => p.name === workload.pool);
  const stored = snapshot.requests.get(workload.id);
  const base = {
    id: workload.id,
    namespace: workload.namespace,
    name: workload.name,
    cluster: workload.cluster,
    pool: workload.pool ?? '',
    resourceName: workload.resourceName,
    replicas: workload.replicas,
    perReplica: workload.perReplica,
    sources: [workload.path, pool?.path, stored?.path]
      .filter((s): s is string => !!s)
      .sort(),
  };
  if (stored && cluster) {
    // The manifest is the truth for replicas (someone may have scaled it since).
    const request =
      stored.request.spec.gpu.replicas === workload.replicas
        ? stored.request
        : {
            ...stored.request,
            spec: {
              ...stored.request.spec,
              gpu: { ...stored.request.spec.gpu, replicas: workload.replicas },
            },
          };
    try {
      // The planner looks at workloads only to find this one (not to count
      // it twice); handing it just that keeps a lookup O(1) on 20k workloads.
      const planned = plan(request, catalog, cluster.profile, {
        ...cluster.repoState,
        workloads: [workload],
      });
      const allocation: GpuAllocation = {
        ...base,
        pool: workload.pool ?? planned.pool.name,
        owner: request.spec.owner,
        gpuModel: planned.pool.gpuModel,
        sharingMode: planned.sharing.mode,
        gpuSharePerReplica: planned.perReplica.gpuShare,
        vramMiBPerReplica: planned.perReplica.memoryMiB,
        vramGuaranteed: planned.perReplica.vramGuaranteed,
        physicalGpus: planned.physicalGpus,
        usdPerMonth: planned.cost.usdPerMonth,
      };
      if (planned.sharing.migProfile) {
        allocation.migProfile = planned.sharing.migProfile;
      }
      return allocation;
    } catch {
      // A request the planner no longer accepts (catalog changed): use the manifests.
    }
  }
  return fromManifests(
    base,
    pool,
    cluster?.repoState,
    catalog,
    stored?.request.spec.owner,
  );
}

function fromManifests(
  base: Omit<
    GpuAllocation,
    | 'gpuModel'
    | 'sharingMode'
    | 'gpuSharePerReplica'
    | 'vramMiBPerReplica'
    | 'vramGuaranteed'
    | 'physicalGpus'
    | 'usdPerMonth'
  >,
  pool: PoolState | undefined,
  repoState: RepoState | undefined,
  catalog: GpuCatalog,
  owner: string | undefined,
): GpuAllocation {
  const model = modelOf(pool, catalog);
  const mode = pool?.sharingMode ?? 'exclusive';
  const units = pool && repoState ? unitsPerGpu(pool, repoState) : 1;
  const memory = model?.memoryMiB ?? 0;
  let share = base.perReplica;
  let vram = memory * base.perReplica;
  let guaranteed = model !== undefined;
  let migProfile: string | undefined;
  if (mode === 'time-slicing' || mode === 'mps') {
    share = base.perReplica / units;
    vram = Math.floor(memory / units) * base.perReplica;
    // Time slices share all memory; MPS pins a limit per client.
    guaranteed = mode === 'mps' && model !== undefined;
  } else if (mode === 'mig') {
    const layout = pool && repoState ? migLayoutOf(pool, repoState) : undefined;
    migProfile =
      pool?.migProfile ??
      (layout && Object.keys(layout).length === 1
        ? Object.keys(layout)[0]
        : undefined);
    const profile = model?.mig?.profiles.find(p => p.name === migProfile);
    if (profile && model?.mig) {
      share =
        (profile.computeSlices / model.mig.computeSlices) * base.perReplica;
      vram = profile.memoryMiB * base.perReplica;
    } else {
      share = base.perReplica / units;
      vram = 0;
      guaranteed = false;
    }
  }
  const physicalGpus = round(share * base.replicas, 6);
  const perGpuHour = Math.min(
    ...(pool?.instanceTypes ?? [])
      .map(name => findInstanceType(catalog, name))
      .filter(t => t !== undefined && t.gpusPerNode > 0)
      .map(t => t!.onDemandUsdPerHour / t!.gpusPerNode),
  );
  const allocation: GpuAllocation = {
    ...base,
    gpuModel: pool?.gpuModel ?? 'unknown',
    sharingMode: mode,
    gpuSharePerReplica: round(share, 6),
    vramMiBPerReplica: vram,
    vramGuaranteed: guaranteed,
    physicalGpus,
    usdPerMonth: Number.isFinite(perGpuHour)
      ? round(physicalGpus * perGpuHour * HOURS_PER_MONTH, 2)
      : 0,
  };
  if (owner) allocation.owner = owner;
  if (migProfile) allocation.migProfile = migProfile;
  return allocation;
}
