/**
 * What the index keeps between refreshes: every file it reads, by path, with
 * the blob sha it was parsed from and its parse result (pool files, the
 * device-plugin and MIG config files, the hand-written ConfigMaps of a
 * cluster's folder, workload folders, stored requests), and the lookups the
 * refresh and the snapshot build make on it.
 */
import {
  compareStrings,
  type ClusterGpuStack,
  type GpuRequest,
  type HandWrittenConfigMap,
  type NodeOverlayLike,
  type PoolNodeShape,
  type PoolState,
} from '@gpu-gitops/plugin-gpu-common';
import {
  handWrittenConfigsByName,
  type ParsedDocument,
  type PoolConfigs,
  type SkippedFile,
} from '@gpu-gitops/plugin-gpu-node';
import type { ParsedWorkloadFolder } from './fileParsers';
import { noGpuStackFiles } from './gpuStacks';
import type { StoredRequest } from './indexSnapshot';
import type { RepoFolders } from './repoFolders';

/** Why a symbolic link at a path the index reads is skipped. */
export const SYMLINK_SKIP_REASON =
  'a symbolic link: never read (it could lead outside the repository); replace it with the file itself';

/** A NodePool file: its pools and the config entries they name (a change to one re-parses the file). */
export interface PoolFile {
  cluster: string;
  pools: PoolState[];
  /** Its pools' node shapes (where workloads land). */
  shapes: PoolNodeShape[];
  /** The nodes of the team's own GPU NodePools in it (workloads land there too, uncounted). */
  handWrittenShapes: PoolNodeShape[];
  /** Its NodeFeatureRules: where no NodePool runs, a team's rules label GPU servers pods land on. */
  nodeFeatureRules: unknown[];
  /** Its NodeOverlays: a team's add resources to NodePools of any file of the cluster. */
  overlays: NodeOverlayLike[];
  /** The names of its other pool objects (CPU or hand-written pools): names a new pool must not take. */
  otherNodePools: string[];
  devicePluginConfigs: string[];
  migConfigs: string[];
  skipped: SkippedFile[];
  /** Its documents a managed topology's workers are read from, with the cluster folder's others (`parseTopologyWorkers`). */
  topologyDocuments?: ParsedDocument[];
}

/** A device-plugin or mig-parted config file: its entries by name (pools are parsed against them). */
export interface ConfigFile {
  cluster: string;
  configs: Record<string, unknown>;
  skipped: SkippedFile[];
}

/** A file of a cluster's folder holding hand-written ConfigMaps of NVIDIA configs. */
export interface ConfigMapFile {
  cluster: string;
  configMaps: HandWrittenConfigMap[];
  skipped: SkippedFile[];
}

export interface RequestFile {
  request?: GpuRequest;
  skipped: SkippedFile[];
}

/** The store as saved to the state file (maps as entry lists). */
export interface SavedStore {
  revision?: string;
  blobs: [string, string][];
  poolFiles: [string, PoolFile][];
  devicePluginFiles: [string, ConfigFile][];
  migFiles: [string, ConfigFile][];
  configMapFiles: [string, ConfigMapFile][];
  folderFiles: [string, string[]][];
  workloadFolders: [string, ParsedWorkloadFolder][];
  requestFiles: [string, RequestFile][];
  symlinks: string[];
  /** Absent when the stacks were not read yet. */
  gpuStacks?: [string, ClusterGpuStack][];
  gpuStackFiles: {
    releases: string[];
    valuesSources: string[];
    opened: string[];
    valuesFromInUse: boolean;
  };
}

export class IndexStore {
  /** The commit the stored parse results are valid for. */
  revision?: string;
  /** Path -> blob sha of every file the index reads. */
  blobs = new Map<string, string>();
  readonly poolFiles = new Map<string, PoolFile>();
  /** Device-plugin config files by path. */
  readonly devicePluginFiles = new Map<string, ConfigFile>();
  /** The mig-parted config file by cluster (one per cluster). */
  readonly migFiles = new Map<string, ConfigFile>();
  /** Files of the clusters' folders holding hand-written ConfigMaps of NVIDIA configs, by path. */
  readonly configMapFiles = new Map<string, ConfigMapFile>();
  /** Workload folder -> its YAML files. */
  readonly folderFiles = new Map<string, Set<string>>();
  readonly workloadFolders = new Map<string, ParsedWorkloadFolder>();
  readonly requestFiles = new Map<string, RequestFile>();
  /** Symbolic links at paths the index would read: reported as skipped, never read. */
  symlinks = new Set<string>();
  /** What each cluster's GPU nodes run (`gpuStacks.ts`); undefined until read. */
  gpuStacks?: Map<string, ClusterGpuStack>;
  /** What the stacks were read from (`gpuStacks.ts`). */
  gpuStackFiles = noGpuStackFiles();

  constructor(private readonly folders: RepoFolders) {}

  /** Remembers the symbolic links among `paths` that sit where the index reads. */
  addSymlinks(paths: string[]): void {
    for (const path of paths) {
      if (this.folders.classify(path)) this.symlinks.add(path);
    }
  }

  symlinkSkips(): SkippedFile[] {
    return [...this.symlinks].map(path => ({
      path,
      reason: SYMLINK_SKIP_REASON,
    }));
  }

  /** The hand-written ConfigMaps of NVIDIA configs in `cluster`'s folder, by path (as `readRepoState` lists them). */
  handWrittenConfigMaps(cluster: string): HandWrittenConfigMap[] {
    return [...this.configMapFiles]
      .filter(([, file]) => file.cluster === cluster)
      .sort(([a], [b]) => compareStrings(a, b))
      .flatMap(([, file]) => file.configMaps);
  }

  /**
   * Every device-plugin and mig-parted config of `cluster`: what its pools
   * are parsed against. A product's config file wins over a hand-written
   * ConfigMap's key of the same name, as in `readRepoState`.
   */
  poolConfigs(cluster: string): PoolConfigs {
    const handWritten = handWrittenConfigsByName(
      this.handWrittenConfigMaps(cluster),
    );
    const devicePluginConfigs: Record<string, unknown> = {
      ...handWritten.devicePluginConfigs,
    };
    for (const file of this.devicePluginFiles.values()) {
      if (file.cluster === cluster) {
        Object.assign(devicePluginConfigs, file.configs);
      }
    }
    return {
      devicePluginConfigs,
      migConfigs: {
        ...handWritten.migConfigs,
        ...this.migFiles.get(cluster)?.configs,
      },
    };
  }

  /** The other pool names of `cluster`'s files, sorted. */
  otherNodePools(cluster: string): string[] {
    const names = new Set<string>();
    for (const file of this.poolFiles.values()) {
      if (file.cluster === cluster)
        file.otherNodePools.forEach(n => names.add(n));
    }
    return [...names].sort();
  }

  /** The stored requests by `<namespace>/<name>`. */
  collectRequests(): Map<string, StoredRequest> {
    const requests = new Map<string, StoredRequest>();
    for (const [path, file] of this.requestFiles) {
      if (!file.request) continue;
      const { namespace, name } = file.request.metadata;
      requests.set(`${namespace}/${name}`, { path, request: file.request });
    }
    return requests;
  }

  /** Everything stored, keyed by path and valid for `revision` (blob shas included). */
  toSaved(): SavedStore {
    return {
      revision: this.revision,
      blobs: [...this.blobs],
      poolFiles: [...this.poolFiles],
      devicePluginFiles: [...this.devicePluginFiles],
      migFiles: [...this.migFiles],
      configMapFiles: [...this.configMapFiles],
      folderFiles: [...this.folderFiles].map(([f, files]) => [f, [...files]]),
      workloadFolders: [...this.workloadFolders],
      requestFiles: [...this.requestFiles],
      symlinks: [...this.symlinks],
      ...(this.gpuStacks ? { gpuStacks: [...this.gpuStacks] } : {}),
      gpuStackFiles: {
        releases: [...this.gpuStackFiles.releases],
        valuesSources: [...this.gpuStackFiles.valuesSources],
        opened: [...this.gpuStackFiles.opened],
        valuesFromInUse: this.gpuStackFiles.valuesFromInUse,
      },
    };
  }

  /** Replaces everything stored with `saved`. */
  load(saved: SavedStore): void {
    this.revision = saved.revision;
    this.blobs = new Map(saved.blobs);
    const fill = <T>(target: Map<string, T>, entries: [string, T][]) => {
      target.clear();
      for (const [key, value] of entries) target.set(key, value);
    };
    fill(this.poolFiles, saved.poolFiles);
    fill(this.devicePluginFiles, saved.devicePluginFiles);
    fill(this.migFiles, saved.migFiles);
    fill(this.configMapFiles, saved.configMapFiles);
    fill(
      this.folderFiles,
      saved.folderFiles.map(([f, files]) => [f, new Set(files)]),
    );
    fill(this.workloadFolders, saved.workloadFolders);
    fill(this.requestFiles, saved.requestFiles);
    this.symlinks = new Set(saved.symlinks);
    this.gpuStacks = saved.gpuStacks && new Map(saved.gpuStacks);
    const stackFiles = saved.gpuStackFiles;
    this.gpuStackFiles = {
      releases: new Set(stackFiles.releases),
      valuesSources: new Set(stackFiles.valuesSources),
      opened: new Set(stackFiles.opened),
      valuesFromInUse: stackFiles.valuesFromInUse,
    };
  }
}
