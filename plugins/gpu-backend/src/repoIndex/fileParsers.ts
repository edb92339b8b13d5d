/**
 * Parses parts of the repository with gpu-node's own reader (`readRepoState`
 * over an in-memory view holding just those files), so the index understands
 * the repository exactly as the publisher and the planner do, yet re-reads
 * only what a commit changed.
 */
import {
  parseGpuRequestYaml,
  type GpuCatalog,
  type GpuRequest,
  type PoolState,
  type RepositoryWorkload,
  type WorkloadState,
} from '@gpu-gitops/plugin-gpu-common';
import {
  readRepoState,
  type ResolvedRepoLayout,
  type SkippedFile,
} from '@gpu-gitops/plugin-gpu-node';
import { FilesView } from './FilesView';
import { readWorkloadObjects } from './workloadObjects';

export interface ParseContext {
  layout: ResolvedRepoLayout;
  catalog: GpuCatalog;
  /** The namespace the layout gives a workload file's folder (RepoFolders' compiled pattern). */
  workloadNamespace(path: string): string | undefined;
}

/** A cluster name no real cluster uses, for reads that need no cluster folder. */
const NO_CLUSTER = 'zz-no-cluster';

function groupSkipped(
  skipped: SkippedFile[],
  keyOf: (path: string) => string | undefined,
): Map<string, SkippedFile[]> {
  const out = new Map<string, SkippedFile[]>();
  for (const s of skipped) {
    const key = keyOf(s.path);
    if (key === undefined) continue;
    out.set(key, [...(out.get(key) ?? []), s]);
  }
  return out;
}

/** Device-plugin configs (one file each) or the mig-parted config of a cluster. */
export async function parseClusterConfigFile(
  ctx: ParseContext,
  cluster: string,
  path: string,
  text: string,
): Promise<{
  devicePluginConfigs: Record<string, unknown>;
  migConfigs: Record<string, unknown>;
  skipped: SkippedFile[];
}> {
  const state = await readRepoState(
    new FilesView(new Map([[path, text]])),
    ctx.layout,
    cluster,
    { catalog: ctx.catalog, workloadDirs: [] },
  );
  return {
    devicePluginConfigs: state.devicePluginConfigs,
    migConfigs: state.migConfigs,
    skipped: state.skipped,
  };
}

/**
 * The pools of some NodePool files of one cluster. `configFiles` holds the
 * device-plugin and mig-parted config files (path -> text) the pools refer
 * to: the reader infers sharing details from them when labels are missing.
 */
export async function parsePoolFiles(
  ctx: ParseContext,
  cluster: string,
  poolFiles: Map<string, string>,
  configFiles: Map<string, string>,
): Promise<Map<string, { pools: PoolState[]; skipped: SkippedFile[] }>> {
  const state = await readRepoState(
    new FilesView(new Map([...configFiles, ...poolFiles])),
    ctx.layout,
    cluster,
    { catalog: ctx.catalog, workloadDirs: [] },
  );
  const skipped = groupSkipped(state.skipped, p =>
    poolFiles.has(p) ? p : undefined,
  );
  const out = new Map<string, { pools: PoolState[]; skipped: SkippedFile[] }>();
  for (const path of poolFiles.keys()) {
    out.set(path, { pools: [], skipped: skipped.get(path) ?? [] });
  }
  for (const pool of state.pools) out.get(pool.path)?.pools.push(pool);
  return out;
}

/** What the index keeps of one workload folder. */
export interface ParsedWorkloadFolder {
  /** Its GPU workloads, as the planner reads them. */
  workloads: WorkloadState[];
  /** Every workload object, GPU or not, as deployed (existing workloads a request can name). */
  objects: RepositoryWorkload[];
  skipped: SkippedFile[];
}

/**
 * The GPU workloads and the workload objects of some workload folders
 * (folder -> its files), read together so a patch meets its base, and
 * returned per folder.
 */
export async function parseWorkloadFolders(
  ctx: ParseContext,
  folders: Map<string, Map<string, string>>,
): Promise<Map<string, ParsedWorkloadFolder>> {
  const files = new Map<string, string>();
  const folderOf = new Map<string, string>();
  const listing = new Map<string, string[]>();
  for (const [folder, folderFiles] of folders) {
    listing.set(folder, [...folderFiles.keys()]);
    for (const [path, text] of folderFiles) {
      files.set(path, text);
      folderOf.set(path, folder);
    }
  }
  const state = await readRepoState(
    new FilesView(files, listing),
    ctx.layout,
    NO_CLUSTER,
    { catalog: ctx.catalog, workloadDirs: [...folders.keys()] },
  );
  const skipped = groupSkipped(state.skipped, p => folderOf.get(p));
  const out = new Map<string, ParsedWorkloadFolder>();
  for (const [folder, folderFiles] of folders) {
    out.set(folder, {
      workloads: [],
      objects: await readWorkloadObjects(ctx.workloadNamespace, folderFiles),
      skipped: skipped.get(folder) ?? [],
    });
  }
  for (const workload of state.workloads) {
    const folder = folderOf.get(workload.path);
    if (folder) out.get(folder)!.workloads.push(workload);
  }
  return out;
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
        {
          path,
          reason: `not a valid GpuRequest: ${(error as Error).message}`,
        },
      ],
    };
  }
}
