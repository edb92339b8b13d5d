/**
 * The sharing configs of a change: one file per named device-plugin config,
 * one entry in the cluster's mig-parted config.
 */
import { isMap, type YAMLMap } from 'yaml';
import {
  DEFAULT_MIG_CONFIG,
  type MigConfigEntry,
} from '@gpu-gitops/plugin-gpu-common';
import { deepEqual, toYaml } from './canonical';
import { conflictError } from './conflict';
import type { StagedTree } from './stagedTree';
import { sortMap, YamlFile } from './yamlFile';

/** One file per named entry: create it, accept identical content, refuse different content. */
export async function applyNamedFile(
  staged: StagedTree,
  path: string,
  value: unknown,
  what: string,
): Promise<void> {
  const text = await staged.read(path);
  if (text === undefined || text.trim() === '') {
    await staged.write(path, toYaml(value));
    return;
  }
  const values = YamlFile.parse(path, text)
    .values()
    .filter(v => v !== null);
  if (values.length === 1 && deepEqual(values[0], value)) return;
  throw conflictError(
    path,
    `${what} already exists at ${path} with different content; a config in use is never changed in place (nodes would not reload it) — choose a new name`,
  );
}

function keysOf(map: YAMLMap): string {
  return map.items
    .map(i => String((i.key as { value?: unknown })?.value ?? i.key))
    .join('\n');
}

/**
 * The mig-parted entry the GPU Operator's MIG manager applies to nodes
 * without a `nvidia.com/mig.config` label (the ClusterPolicy's
 * `migManager.config.default`, gpu-operator chart values, v26.x).
 */
export const ALL_DISABLED_MIG_CONFIG: {
  name: string;
  entries: MigConfigEntry[];
} = Object.freeze({
  name: DEFAULT_MIG_CONFIG,
  entries: [{ devices: 'all' as const, 'mig-enabled': false }],
});

export interface MigConfigOptions {
  /**
   * What an entry of that name with other content means: `refuse` (a
   * request's config in use is never changed in place) or `keep` (the
   * bootstrap leaves a hand-written default alone).
   */
  whenDifferent?: 'refuse' | 'keep';
}

/** Adds one entry to the mig-parted config, keeping `mig-configs` sorted by name. */
export async function applyMigConfig(
  staged: StagedTree,
  path: string,
  name: string,
  entries: MigConfigEntry[],
  options: MigConfigOptions = {},
): Promise<void> {
  const file = YamlFile.parse(path, await staged.read(path));
  if (!file.docs.some(d => isMap(d.contents))) {
    // A fresh config also carries `all-disabled`, the GPU Operator's default label value.
    const doc = file.firstMap();
    doc.set('version', 'v1');
    const configs: Record<string, unknown> = {
      [ALL_DISABLED_MIG_CONFIG.name]: ALL_DISABLED_MIG_CONFIG.entries,
      [name]: entries,
    };
    doc.set(
      'mig-configs',
      doc.createNode(
        Object.fromEntries(
          Object.keys(configs)
            .sort()
            .map(k => [k, configs[k]]),
        ),
      ),
    );
    const content = file.newContent();
    if (content !== undefined) await staged.write(path, content);
    return;
  }
  const doc = file.firstMap();
  if (!doc.has('version')) {
    (doc.contents as YAMLMap).items.unshift(doc.createPair('version', 'v1'));
    file.modified = true;
  }
  let configs = doc.get('mig-configs', true);
  if (!isMap(configs)) {
    doc.set('mig-configs', doc.createNode({}));
    configs = doc.get('mig-configs', true);
    file.modified = true;
  }
  const map = configs as YAMLMap;
  if (map.has(name)) {
    const current = (map.get(name, true) as { toJSON(): unknown }).toJSON();
    if (!deepEqual(current, entries) && options.whenDifferent !== 'keep') {
      throw conflictError(
        `${path}#mig-configs.${name}`,
        `mig-parted config "${name}" already exists in ${path} with different content`,
      );
    }
  } else {
    map.set(doc.createNode(name), doc.createNode(entries));
    file.modified = true;
  }
  const before = keysOf(map);
  sortMap(map);
  if (before !== keysOf(map)) file.modified = true;
  const content = file.newContent();
  if (content !== undefined) await staged.write(path, content);
}
