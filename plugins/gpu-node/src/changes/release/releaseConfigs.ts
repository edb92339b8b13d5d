/**
 * The config part of a release: a device-plugin config or a mig-parted entry
 * that only removed pools selected goes, unless a NodePool left in the
 * cluster's folder (a hand-written one too) still names it on its nodes.
 */
import { isMap, type YAMLMap } from 'yaml';
import {
  WELL_KNOWN_KEYS,
  type ClusterProfile,
  type ReleasePlan,
} from '@gpu-gitops/plugin-gpu-common';
import {
  clusterKustomizationPath,
  devicePluginConfigPath,
  migConfigPath,
  type ResolvedRepoLayout,
} from '../../layout/layout';
import { removeConfigMapFile } from '../../kustomize/editGenerators';
import type { StagedTree } from '../stagedTree';
import { YamlFile } from '../yamlFile';
import { clusterPoolNodeLabels } from './clusterNodePools';

/** Config label values the cluster's remaining pools put on their nodes. */
async function selectedConfigs(
  staged: StagedTree,
  layout: ResolvedRepoLayout,
  cluster: string,
  label: string,
): Promise<Set<string>> {
  const selected = new Set<string>();
  for (const labels of await clusterPoolNodeLabels(staged, layout, cluster)) {
    if (labels[label] !== undefined) selected.add(labels[label]);
  }
  return selected;
}

async function removeDevicePluginConfigs(
  staged: StagedTree,
  layout: ResolvedRepoLayout,
  cluster: ClusterProfile,
  names: string[],
): Promise<void> {
  const selected = await selectedConfigs(
    staged,
    layout,
    cluster.name,
    WELL_KNOWN_KEYS.devicePluginConfig,
  );
  const kustomizationPath = clusterKustomizationPath(layout, cluster.name);
  const kustomization = YamlFile.parse(
    kustomizationPath,
    await staged.read(kustomizationPath),
  );
  for (const name of names.filter(n => !selected.has(n))) {
    const path = devicePluginConfigPath(layout, cluster.name, name);
    // Only the product's own file (its layout path) goes, with its key.
    if ((await staged.read(path)) === undefined) continue;
    await staged.remove(path);
    removeConfigMapFile(kustomization, cluster.devicePluginConfigMap, name);
  }
  const content = kustomization.newContent();
  if (content !== undefined) await staged.write(kustomizationPath, content);
}

async function removeMigConfigs(
  staged: StagedTree,
  layout: ResolvedRepoLayout,
  cluster: ClusterProfile,
  names: string[],
): Promise<void> {
  const selected = await selectedConfigs(
    staged,
    layout,
    cluster.name,
    WELL_KNOWN_KEYS.migConfig,
  );
  const path = migConfigPath(layout, cluster.name);
  const text = await staged.read(path);
  if (text === undefined) return;
  const file = YamlFile.parse(path, text);
  const configs = file.firstMap().get('mig-configs', true);
  if (!isMap(configs)) return;
  for (const name of names.filter(n => !selected.has(n))) {
    if ((configs as YAMLMap).delete(name)) file.modified = true;
  }
  const content = file.newContent();
  if (content !== undefined) await staged.write(path, content);
}

/** Removes the configs the release plan found unused, as far as the tree agrees. */
export async function releaseConfigs(
  staged: StagedTree,
  layout: ResolvedRepoLayout,
  cluster: ClusterProfile,
  plan: ReleasePlan,
): Promise<void> {
  if (plan.unusedDevicePluginConfigs.length > 0) {
    await removeDevicePluginConfigs(
      staged,
      layout,
      cluster,
      plan.unusedDevicePluginConfigs,
    );
  }
  if (plan.unusedMigConfigs.length > 0) {
    await removeMigConfigs(staged, layout, cluster, plan.unusedMigConfigs);
  }
}
