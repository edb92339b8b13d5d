import { eventLoopTurns } from '@gpu-gitops/plugin-gpu-node';
import type { BlobChanges } from './gitSnapshot';
import type { IndexStore } from './indexStore';
import type { RepoFolders } from './repoFolders';

/** A changed device-plugin (`name` set: the config it holds) or MIG config file. */
export interface DirtyConfig {
  path: string;
  cluster: string;
  name?: string;
}

/** The changed files of one refresh, by what the index parses them as. */
export interface DirtyFiles {
  configs: DirtyConfig[];
  /** NodePool file -> its cluster. */
  pools: Map<string, string>;
  /** Another file of a cluster's folder -> its cluster. */
  clusterFiles: Map<string, string>;
  folders: Set<string>;
  requests: string[];
  /** A cluster's kustomization changed: the whole snapshot is rebuilt. */
  setupChanged: boolean;
}

/**
 * Records `changes` in the store's blob and workload-folder listings and
 * sorts each changed file by what the index parses it as. A first index
 * sorts every file (130k on the scale bench: a third of a second), so
 * `yieldTurn` gives the event loop its turns (gpu-node `eventLoopTurns`).
 */
export async function recordChanges(
  store: IndexStore,
  folders: RepoFolders,
  changes: BlobChanges,
  yieldTurn: () => Promise<void> = eventLoopTurns(),
): Promise<DirtyFiles> {
  const dirty: DirtyFiles = {
    configs: [],
    pools: new Map(),
    clusterFiles: new Map(),
    folders: new Set(),
    requests: [],
    setupChanged: false,
  };
  for (const [path, sha] of changes) {
    await yieldTurn();
    if (sha === undefined) store.blobs.delete(path);
    else store.blobs.set(path, sha);
    const place = folders.classify(path);
    switch (place?.entry) {
      case 'devicePluginConfig':
        dirty.configs.push({
          path,
          cluster: place.cluster,
          name: place.config,
        });
        break;
      case 'migConfig':
        dirty.configs.push({ path, cluster: place.cluster });
        break;
      case 'nodePool':
        dirty.pools.set(path, place.cluster);
        break;
      case 'workloadDir':
        recordFolderFile(store, place.folder, path, sha !== undefined);
        dirty.folders.add(place.folder);
        break;
      case 'request':
        dirty.requests.push(path);
        break;
      case 'clusterKustomization':
        dirty.setupChanged = true;
        break;
      case 'clusterFolder':
        dirty.clusterFiles.set(path, place.cluster);
        break;
      default:
    }
  }
  return dirty;
}

function recordFolderFile(
  store: IndexStore,
  folder: string,
  path: string,
  present: boolean,
): void {
  const files = store.folderFiles.get(folder) ?? new Set();
  if (present) files.add(path);
  else files.delete(path);
  store.folderFiles.set(folder, files);
}
