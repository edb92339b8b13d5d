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
  type WorkloadState,
} from '@gpu-gitops/plugin-gpu-common';
import {
  readRepoState,
  type RepoTree,
  type ResolvedRepoLayout,
  type SkippedFile,
} from '@gpu-gitops/plugin-gpu-node';

export interface ParseContext {
  layout: ResolvedRepoLayout;
  catalog: GpuCatalog;
}

/** A cluster name no real cluster uses, for reads that need no cluster folder. */
const NO_CLUSTER = 'zz-no-cluster';

/**
 * A read-only view of some files, with a folder index so that listing one of
 * 20k workload folders does not scan every file.
 */
class FilesView implements RepoTree {
  private readonly byFolder = new Map<string, string[]>();

  constructor(
    private readonly files: Map<string, string>,
    folders: Map<string, string[]> = new Map(),
  ) {
    for (const [folder, paths] of folders) {
      this.byFolder.set(folder, [...paths].sort());
    }
  }

  async readFile(path: string): Promise<string | undefined> {
    return this.files.get(path);
  }

  async listFiles(prefix = ''): Promise<string[]> {
    const folder = prefix.replace(/\/+$/, '');
    const indexed = this.byFolder.get(folder);
    if (indexed) return indexed;
    const start = folder ? `${folder}/` : '';
    return [...this.files.keys()]
      .filter(p => p.startsWith(start) || p === folder)
      .sort();
  }

  async writeFile(): Promise<void> {
    throw new Error('the index view is read-only');
  }
}

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

/**
 * The GPU workloads of some workload folders (folder -> its files), read
 * together so a patch meets its base, and returned per folder.
 */
export async function parseWorkloadFolders(
  ctx: ParseContext,
  folders: Map<string, Map<string, string>>,
): Promise<
  Map<string, { workloads: WorkloadState[]; skipped: SkippedFile[] }>
> {
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
  const out = new Map<
    string,
    { workloads: WorkloadState[]; skipped: SkippedFile[] }
  >();
  for (const folder of folders.keys()) {
    out.set(folder, { workloads: [], skipped: skipped.get(folder) ?? [] });
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
