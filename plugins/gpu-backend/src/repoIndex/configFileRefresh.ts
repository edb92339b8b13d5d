import type { HandWrittenConfigMap } from '@gpu-gitops/plugin-gpu-common';
import { clusterFolderFileHolds } from '@gpu-gitops/plugin-gpu-node';
import type { DirtyConfig } from './dirtyFiles';
import {
  parseConfigMapFile,
  parseDevicePluginConfigFile,
  parseMigConfigFile,
} from './fileParsers';
import type { IndexStore } from './indexStore';
import type { RefreshReader } from './refreshReader';

/**
 * The config entries a refresh changed, as `<cluster>/dp/<entry>` and
 * `<cluster>/mig/<entry>`: the pools naming one are parsed again, since a
 * pool infers its sharing details from its configs.
 */
export type ChangedConfigs = Set<string>;

/**
 * Parses the changed other files of the clusters' folders, read once:
 * hand-written ConfigMaps of NVIDIA configs, and the pools the product manages
 * there (gpu-node's clusterFolderFiles.ts, the rule readRepoState applies),
 * which join `dirtyPools`. Returns their texts and whether a ConfigMap changed.
 */
export async function refreshClusterFiles(
  store: IndexStore,
  clusterFiles: Map<string, string>,
  reader: RefreshReader,
  changedConfigs: ChangedConfigs,
  dirtyPools: Map<string, string>,
): Promise<{ texts: Map<string, string>; configMapsChanged: boolean }> {
  const texts = await reader.readPresent([...clusterFiles.keys()].sort());
  let configMapsChanged = false;
  for (const [path, cluster] of clusterFiles) {
    const text = texts.get(path);
    if (refreshConfigMapFile(store, path, cluster, text, changedConfigs)) {
      configMapsChanged = true;
    }
    // Re-parsed as a pool file when it holds a pool now or did before.
    if (
      store.poolFiles.has(path) ||
      (text !== undefined && clusterFolderFileHolds(text).pools)
    ) {
      dirtyPools.set(path, cluster);
    }
  }
  return { texts, configMapsChanged };
}

/** Stores the ConfigMaps `text` holds (none when deleted); true when the file held or holds one. */
function refreshConfigMapFile(
  store: IndexStore,
  path: string,
  cluster: string,
  text: string | undefined,
  changedConfigs: ChangedConfigs,
): boolean {
  const before = store.configMapFiles.get(path);
  const parsed =
    text === undefined ? undefined : parseConfigMapFile(path, text);
  if (parsed && (parsed.configMaps.length > 0 || parsed.skipped.length > 0)) {
    store.configMapFiles.set(path, { cluster, ...parsed });
  } else {
    store.configMapFiles.delete(path);
  }
  if (!before && !store.configMapFiles.has(path)) return false;
  for (const [kind, tag] of [
    ['devicePluginConfigs', 'dp'],
    ['migConfigs', 'mig'],
  ] as const) {
    noteChangedEntries(
      changedConfigs,
      `${cluster}/${tag}`,
      configMapEntries(before?.configMaps, kind),
      configMapEntries(parsed?.configMaps, kind),
    );
  }
  return true;
}

function configMapEntries(
  configMaps: readonly HandWrittenConfigMap[] | undefined,
  kind: 'devicePluginConfigs' | 'migConfigs',
): Record<string, unknown> {
  return Object.assign({}, ...(configMaps ?? []).map(m => m[kind]));
}

/** Parses the changed device-plugin and MIG config files into the store. */
export async function refreshConfigFiles(
  store: IndexStore,
  configs: DirtyConfig[],
  reader: RefreshReader,
  changedConfigs: ChangedConfigs,
): Promise<void> {
  const texts = await reader.readPresent(configs.map(c => c.path));
  for (const { path, cluster, name } of configs) {
    const files = name === undefined ? store.migFiles : store.devicePluginFiles;
    const key = name === undefined ? cluster : path;
    const before = files.get(key);
    const text = texts.get(path);
    if (text === undefined) {
      files.delete(key);
    } else {
      const parsed =
        name === undefined
          ? parseMigConfigFile(path, text)
          : parseDevicePluginConfigFile(path, name, text);
      files.set(key, { cluster, ...parsed });
    }
    const kind = name === undefined ? 'mig' : 'dp';
    noteChangedEntries(
      changedConfigs,
      `${cluster}/${kind}`,
      before?.configs ?? {},
      files.get(key)?.configs ?? {},
    );
    if (name !== undefined) changedConfigs.add(`${cluster}/dp/${name}`);
  }
}

/** Adds to `dirtyPools` every stored pool file that names a changed config. */
export function markPoolsOfChangedConfigs(
  store: IndexStore,
  changedConfigs: ChangedConfigs,
  dirtyPools: Map<string, string>,
): void {
  if (changedConfigs.size === 0) return;
  for (const [path, file] of store.poolFiles) {
    if (
      file.devicePluginConfigs.some(n =>
        changedConfigs.has(`${file.cluster}/dp/${n}`),
      ) ||
      file.migConfigs.some(n => changedConfigs.has(`${file.cluster}/mig/${n}`))
    ) {
      dirtyPools.set(path, file.cluster);
    }
  }
}

function noteChangedEntries(
  changedConfigs: ChangedConfigs,
  prefix: string,
  old: Record<string, unknown>,
  now: Record<string, unknown>,
): void {
  for (const entry of new Set([...Object.keys(old), ...Object.keys(now)])) {
    if (JSON.stringify(old[entry]) !== JSON.stringify(now[entry])) {
      changedConfigs.add(`${prefix}/${entry}`);
    }
  }
}
