/**
 * Parses one unit of the repository at a time with gpu-node's own reader
 * (`readRepoState` over an in-memory view holding just that unit's files), so
 * the index understands the repository exactly as the publisher and the
 * planner do, yet re-reads only what a commit changed.
 */
import {
  parseGpuRequestYaml,
  type GpuCatalog,
  type GpuRequest,
  type PoolState,
  type WorkloadState,
} from '@gpu-gitops/plugin-gpu-common';
import {
  MemoryRepoTree,
  readRepoState,
  type ResolvedRepoLayout,
  type SkippedFile,
} from '@gpu-gitops/plugin-gpu-node';

export interface ParseContext {
  layout: ResolvedRepoLayout;
  catalog: GpuCatalog;
}

/** A cluster name no real cluster uses, for reads that need no cluster folder. */
const NO_CLUSTER = 'zz-no-cluster';

export async function parseDevicePluginConfigFile(
  ctx: ParseContext,
  cluster: string,
  path: string,
  text: string,
): Promise<{ configs: Record<string, unknown>; skipped: SkippedFile[] }> {
  const state = await readRepoState(
    new MemoryRepoTree({ [path]: text }),
    ctx.layout,
    cluster,
    { catalog: ctx.catalog, workloadDirs: [] },
  );
  return { configs: state.devicePluginConfigs, skipped: state.skipped };
}

export async function parseMigConfigFile(
  ctx: ParseContext,
  cluster: string,
  path: string,
  text: string,
): Promise<{ configs: Record<string, unknown>; skipped: SkippedFile[] }> {
  const state = await readRepoState(
    new MemoryRepoTree({ [path]: text }),
    ctx.layout,
    cluster,
    { catalog: ctx.catalog, workloadDirs: [] },
  );
  return { configs: state.migConfigs, skipped: state.skipped };
}

/**
 * The pools of one NodePool file. `configFiles` holds the device-plugin and
 * mig-parted config files (path -> text) the pools refer to: the reader infers
 * sharing details from them when labels are missing.
 */
export async function parsePoolFile(
  ctx: ParseContext,
  cluster: string,
  path: string,
  text: string,
  configFiles: Record<string, string>,
): Promise<{ pools: PoolState[]; skipped: SkippedFile[] }> {
  const state = await readRepoState(
    new MemoryRepoTree({ ...configFiles, [path]: text }),
    ctx.layout,
    cluster,
    { catalog: ctx.catalog, workloadDirs: [] },
  );
  return {
    pools: state.pools.filter(p => p.path === path),
    skipped: state.skipped.filter(s => s.path === path),
  };
}

/** The GPU workloads of one workload folder (all its YAML files together, so a patch meets its base). */
export async function parseWorkloadFolder(
  ctx: ParseContext,
  folder: string,
  files: Record<string, string>,
): Promise<{ workloads: WorkloadState[]; skipped: SkippedFile[] }> {
  const state = await readRepoState(
    new MemoryRepoTree(files),
    ctx.layout,
    NO_CLUSTER,
    { catalog: ctx.catalog, workloadDirs: [folder] },
  );
  return { workloads: state.workloads, skipped: state.skipped };
}

export function parseRequestFile(
  path: string,
  text: string,
): { request?: GpuRequest; skipped: SkippedFile[] } {
  try {
    return { request: parseGpuRequestYaml(text), skipped: [] };
  } catch (error) {
    return {
      skipped: [
        { path, reason: `not a valid GpuRequest: ${(error as Error).message}` },
      ],
    };
  }
}
