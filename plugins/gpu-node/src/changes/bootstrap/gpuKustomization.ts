/**
 * The cluster's GPU kustomization as the bootstrap starts it, for every
 * provider (the EKS Auto Mode bootstrap writes it alone).
 */
import type { ConfigMapRef } from '@gpu-gitops/plugin-gpu-common';
import { MIG_CONFIG_KEY } from '../applyPlan';
import {
  addConfigMapFile,
  useStableGeneratorNames,
} from '../../kustomize/editGenerators';
import {
  openKustomization,
  relativeTo,
} from '../../kustomize/editKustomization';
import { addResource } from '../../kustomize/editResources';
import type { StagedTree } from '../stagedTree';
import { BOOTSTRAP_HEADER, isBlank } from './bootstrapFile';
import type { BootstrapPaths } from './bootstrapPaths';
import { DEFAULT_DEVICE_PLUGIN_CONFIG } from './gpuOperatorValues';

/**
 * The ConfigMaps the product generates in the GPU folder; undefined for one
 * the team wrote by hand, or one the GPU Operator does not read.
 */
export interface GeneratedConfigMaps {
  devicePlugin?: ConfigMapRef;
  migParted?: ConfigMapRef;
}

/**
 * A file the bootstrap starts carries its header; the engine then merges
 * into it exactly as into a file that was already there.
 */
export async function startWithHeader(
  staged: StagedTree,
  path: string,
  start: string,
): Promise<void> {
  if (isBlank(await staged.read(path))) {
    await staged.write(path, `${BOOTSTRAP_HEADER}${start}`);
  }
}

/**
 * The cluster's GPU kustomization: the node class and the scheduler's file
 * (`resources`), and the generators of
 * the ConfigMaps the product writes (device-plugin configs, then
 * mig-parted) with stable names; none for a ConfigMap the team wrote by
 * hand. A new file lists the generators in that order; in an existing one
 * the engine places and keeps entries as a request does.
 */
export async function mergeGpuKustomization(
  staged: StagedTree,
  paths: BootstrapPaths,
  generated: GeneratedConfigMaps,
  resources: string[],
): Promise<void> {
  const path = paths.gpuKustomization;
  const refs = [generated.devicePlugin, generated.migParted].filter(
    (ref): ref is ConfigMapRef => ref !== undefined,
  );
  const generators = refs
    .map(ref => `  - name: ${ref.name}\n    namespace: ${ref.namespace}\n`)
    .join('');
  const generatorFields =
    refs.length > 0
      ? `generatorOptions:\n  disableNameSuffixHash: true\nconfigMapGenerator:\n${generators}`
      : '';
  await startWithHeader(
    staged,
    path,
    `apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources: []\n${generatorFields}`,
  );
  const kustomization = openKustomization(path, await staged.read(path));
  for (const resource of resources) {
    addResource(kustomization, relativeTo(path, resource));
  }
  if (refs.length > 0) useStableGeneratorNames(kustomization);
  if (generated.devicePlugin) {
    addConfigMapFile(
      kustomization,
      generated.devicePlugin,
      DEFAULT_DEVICE_PLUGIN_CONFIG,
      relativeTo(path, paths.defaultDevicePluginConfig),
    );
  }
  if (generated.migParted) {
    addConfigMapFile(
      kustomization,
      generated.migParted,
      MIG_CONFIG_KEY,
      relativeTo(path, paths.migConfig),
    );
  }
  const content = kustomization.newContent();
  if (content !== undefined) await staged.write(path, content);
}
