/**
 * The two ConfigMaps the GPU Operator reads for a cluster, as its profile
 * names them: the device plugin's named configs (`devicePlugin.config.name`,
 * one key per config, selected per node by `nvidia.com/device-plugin.config`)
 * and mig-parted's (`migManager.config.name`, key `config.yaml`), and who
 * writes each. Either the product generates it in the GPU folder from its
 * config files, or the team wrote it by hand in the cluster's folder
 * (`repo/handWrittenConfigMaps.ts`); then the product never edits it and
 * plans only on its keys (gpu-common `planner/handWrittenConfigs.ts`), and
 * the bootstrap generates no ConfigMap of that name (kustomize refuses two
 * objects of one name) and writes none of its keys.
 */
import {
  handWrittenConfigMapReadBy,
  type ClusterProfile,
  type ConfigMapRef,
  type HandWrittenConfigMap,
} from '@gpu-gitops/plugin-gpu-common';
import type { LayoutInput } from '../../layout/layout';
import { readRepoState } from '../../repo/readRepoState';
import type { RepoTree } from '../../repo/tree';
import { isPlainObject } from '../../repo/yamlObjects';
import { ALL_DISABLED_MIG_CONFIG } from '../applyConfigs';
import { DEFAULT_DEVICE_PLUGIN_CONFIG } from './gpuOperatorValues';

export interface OperatorConfigMap {
  kind: 'device-plugin' | 'mig-parted';
  /** The profile's `devicePluginConfigMap` / `migPartedConfigMap`. */
  ref: ConfigMapRef;
  /** The team's ConfigMap of that name in the cluster's folder, when there is one. */
  handWritten?: HandWrittenConfigMap;
}

export interface OperatorConfigMaps {
  devicePlugin: OperatorConfigMap;
  migParted: OperatorConfigMap;
  /** Every hand-written ConfigMap of NVIDIA configs in the cluster's folder, whatever its name. */
  handWrittenInClusterFolder: readonly HandWrittenConfigMap[];
}

/** The cluster's two ConfigMaps, each with the team's hand-written one of its name. */
export async function operatorConfigMaps(
  tree: RepoTree,
  layout: LayoutInput,
  cluster: ClusterProfile,
): Promise<OperatorConfigMaps> {
  // The readers' own rule for the cluster's folder; no workload is needed.
  const { handWrittenConfigMaps } = await readRepoState(
    tree,
    layout,
    cluster.name,
    { workloadDirs: [] },
  );
  const of = (kind: OperatorConfigMap['kind']): OperatorConfigMap => {
    const handWritten = handWrittenConfigMapReadBy(
      kind,
      cluster,
      handWrittenConfigMaps,
    );
    return {
      kind,
      ref:
        kind === 'device-plugin'
          ? cluster.devicePluginConfigMap
          : cluster.migPartedConfigMap,
      ...(handWritten ? { handWritten } : {}),
    };
  };
  return {
    devicePlugin: of('device-plugin'),
    migParted: of('mig-parted'),
    handWrittenInClusterFolder: handWrittenConfigMaps ?? [],
  };
}

/** A device-plugin config that gives whole GPUs: no `sharing` (time-slicing, MPS). */
export function givesWholeGpus(config: unknown): boolean {
  const sharing = isPlainObject(config) ? config.sharing : undefined;
  return !isPlainObject(sharing) || Object.keys(sharing).length === 0;
}

/**
 * The keys `devicePlugin.config.default` may name for the product: the
 * config GPU nodes without a `nvidia.com/device-plugin.config` label get,
 * and exclusive pools carry no such label, so it must give whole GPUs and be
 * a key of the ConfigMap: the config manager fails a node whose default it
 * cannot find, and with no default set falls back to the empty config, the
 * device plugin's own defaults, whole GPUs (gpu-operator v26.7.0
 * `controllers/object_controls.go`, `DEFAULT_CONFIG` and
 * `FALLBACK_STRATEGIES=empty` of the config manager; k8s-device-plugin
 * v0.20.0 `cmd/config-manager/main.go`). The product's own ConfigMap holds
 * `default`, which the bootstrap writes; a hand-written one, its keys
 * without sharing. Empty (no default) always fits.
 */
export function wholeGpuDefaultKeys(configMap: OperatorConfigMap): string[] {
  if (!configMap.handWritten) return [DEFAULT_DEVICE_PLUGIN_CONFIG];
  return Object.entries(configMap.handWritten.devicePluginConfigs)
    .filter(([, config]) => givesWholeGpus(config))
    .map(([key]) => key)
    .sort();
}

/**
 * The `devicePlugin.config.default` the bootstrap's own values set: the
 * product's `default`, or in a hand-written ConfigMap its `default` key when
 * that gives whole GPUs, else none (the empty config).
 */
export function devicePluginDefaultKey(configMap: OperatorConfigMap): string {
  return wholeGpuDefaultKeys(configMap).includes(DEFAULT_DEVICE_PLUGIN_CONFIG)
    ? DEFAULT_DEVICE_PLUGIN_CONFIG
    : '';
}

/**
 * The `migManager.config.default` the bootstrap's own values set. With
 * `all-disabled` the operator labels every MIG-capable node without a
 * `nvidia.com/mig.config` label with it (gpu-operator v26.7.0
 * `controllers/nodelabeling_controller.go`), so the ConfigMap must hold that
 * entry: the product's always does (the bootstrap adds it); a hand-written
 * one may not, and then no default is set.
 */
export function migManagerDefaultEntry(configMap: OperatorConfigMap): string {
  const name = ALL_DISABLED_MIG_CONFIG.name;
  return !configMap.handWritten || name in configMap.handWritten.migConfigs
    ? name
    : '';
}
