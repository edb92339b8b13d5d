import type { ClusterProfile } from '@gpu-gitops/plugin-gpu-common';
import type { BuiltObject } from '../kustomize';
import {
  layoutPrefix,
  migConfigPath,
  ResolvedRepoLayout,
} from '../layout/layout';
import { handWrittenConfigMaps } from '../repo/handWrittenConfigMaps';
import { getIn, isPlainObject, parseYamlDocuments } from '../repo/yamlObjects';
import type { BuiltRoot } from './builtRoots';
import { configRuleFindings } from './configRules';
import { configMapGenerators } from '../kustomize/configMapGenerators';
import type { SourceTree } from './sourceTree';

/**
 * The two ConfigMaps the GPU Operator reads, as kustomize built them: the
 * device plugin's named configs (ClusterPolicy `devicePlugin.config.name`,
 * one key per config, selected per node by `nvidia.com/device-plugin.config`)
 * and mig-parted's config (`migManager.config.name`, key `config.yaml`,
 * selected by `nvidia.com/mig.config`). See the GPU Operator docs "Time-Slicing
 * GPUs in Kubernetes" and "GPU Operator with MIG" (v24.9).
 */
export interface GpuConfigMaps {
  devicePlugin?: {
    /** `namespace/name`, for messages. */
    ref: string;
    /** Key → parsed config; undefined when the key's text is not YAML. */
    configs: Map<string, unknown>;
  };
  migParted?: {
    ref: string;
    /** Entries under `mig-configs` of its `config.yaml`. */
    migConfigs: Map<string, unknown>;
    /** Set when `config.yaml` breaks the mig-parted rules: no entry is usable. */
    broken: boolean;
  };
}

interface CandidateRef {
  name: string;
  /** Undefined: any namespace (a generator that sets none). */
  namespace?: string;
}

/** The ConfigMap names to look for, most trusted first. */
export interface GpuConfigMapNames {
  devicePlugin: CandidateRef[];
  migParted: CandidateRef[];
}

/** The key mig-manager reads from its ConfigMap. */
export const MIG_PARTED_CONFIG_KEY = 'config.yaml';

/**
 * Which ConfigMaps hold the configs. A cluster profile given by the caller
 * is the truth (its names are what the ClusterPolicy reads). Without one the
 * default profile's names come first, then the ConfigMaps of NVIDIA configs
 * the repository writes by hand (`repo/handWrittenConfigMaps.ts`), then the
 * generators the layout's cluster kustomizations fill from the device-plugin
 * and mig-parted config files: a repository written for a profile with other
 * names still checks.
 */
export function gpuConfigMapNames(
  profile: ClusterProfile,
  profileGiven: boolean,
  source: SourceTree,
  layout: ResolvedRepoLayout,
  clusters: string[],
): GpuConfigMapNames {
  const names: GpuConfigMapNames = {
    devicePlugin: [profile.devicePluginConfigMap],
    migParted: [profile.migPartedConfigMap],
  };
  if (profileGiven) return names;
  // What the repository says: its own ConfigMaps of NVIDIA configs.
  for (const configMap of handWrittenConfigMaps(source.docs)) {
    const ref = {
      name: configMap.name,
      ...(configMap.namespace ? { namespace: configMap.namespace } : {}),
    };
    if (Object.keys(configMap.devicePluginConfigs).length > 0) {
      names.devicePlugin.push(ref);
    }
    if (Object.keys(configMap.migConfigs).length > 0) names.migParted.push(ref);
  }
  for (const cluster of clusters) {
    const path = layout.render('clusterKustomization', { cluster });
    const kustomization = source.docs.find(d => d.path === path)?.value;
    const dpPrefix = layoutPrefix(
      layout,
      'devicePluginConfig',
      { cluster },
      'config',
    );
    const migPath = migConfigPath(layout, cluster);
    for (const generator of configMapGenerators(path, kustomization)) {
      const files = [...generator.files.keys()];
      const ref = {
        name: generator.name,
        ...(generator.namespace ? { namespace: generator.namespace } : {}),
      };
      if (files.some(f => f.startsWith(dpPrefix))) names.devicePlugin.push(ref);
      if (files.includes(migPath)) names.migParted.push(ref);
    }
  }
  return names;
}

export function findConfigMaps(
  objects: BuiltObject[],
  candidates: CandidateRef[],
): BuiltObject[] {
  const found = candidates.flatMap(ref =>
    objects.filter(
      o =>
        o.kind === 'ConfigMap' &&
        o.metadata.name === ref.name &&
        (ref.namespace === undefined || o.metadata.namespace === ref.namespace),
    ),
  );
  return [...new Set(found)];
}

function findConfigMap(
  objects: BuiltObject[],
  candidates: CandidateRef[],
): BuiltObject | undefined {
  return findConfigMaps(objects, candidates)[0];
}

function refOf(object: BuiltObject): string {
  return `${object.metadata.namespace ?? 'default'}/${object.metadata.name}`;
}

function parseData(ref: string, key: string, text: unknown): unknown {
  if (typeof text !== 'string') return undefined;
  const { documents, error } = parseYamlDocuments(`${ref}:${key}`, text);
  return error ? undefined : documents[0]?.value;
}

/** The GPU ConfigMaps one root built. */
export function gpuConfigMapsOf(
  objects: BuiltObject[],
  names: GpuConfigMapNames,
): GpuConfigMaps {
  const out: GpuConfigMaps = {};
  // Several candidates are built only when no cluster named the one the
  // device plugin reads: a key of any of them may be the one (the first wins).
  const dps = findConfigMaps(objects, names.devicePlugin);
  if (dps.length > 0) {
    const configs = new Map<string, unknown>();
    for (const dp of dps.slice().reverse()) {
      const data = getIn(dp, 'data');
      for (const [key, text] of Object.entries(
        isPlainObject(data) ? data : {},
      )) {
        configs.set(key, parseData(refOf(dp), key, text));
      }
    }
    out.devicePlugin = { ref: dps.map(refOf).join(' + '), configs };
  }
  const mig = findConfigMap(objects, names.migParted);
  if (mig) {
    const ref = refOf(mig);
    const config = parseData(
      ref,
      MIG_PARTED_CONFIG_KEY,
      getIn(mig, 'data', MIG_PARTED_CONFIG_KEY),
    );
    const entries = getIn(config, 'mig-configs');
    out.migParted = {
      ref,
      migConfigs: new Map(
        Object.entries(isPlainObject(entries) ? entries : {}),
      ),
      broken:
        config === undefined || configRuleFindings.migParted(config).length > 0,
    };
  }
  return out;
}

/**
 * The GPU ConfigMaps that apply to the pools of `root`: its own, else those
 * another root builds (a repository may apply the GPU Operator's configs
 * from another folder than its NodePools).
 */
export function gpuConfigMapsFor(
  root: BuiltRoot,
  all: Map<BuiltRoot, GpuConfigMaps>,
): GpuConfigMaps {
  const own = all.get(root) ?? {};
  const others = [...all.values()];
  return {
    devicePlugin:
      own.devicePlugin ?? others.find(c => c.devicePlugin)?.devicePlugin,
    migParted: own.migParted ?? others.find(c => c.migParted)?.migParted,
  };
}
