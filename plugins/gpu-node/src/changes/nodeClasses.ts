/**
 * Where a cluster's EC2NodeClasses already live. A class is written once:
 * kustomize rejects two objects with one kind and name in a build.
 */
import { posix } from 'path';
import {
  NODE_CLASS_KINDS,
  type KubernetesObject,
} from '@gpu-gitops/plugin-gpu-common';
import {
  clusterKustomizationPath,
  layoutPrefix,
  type ResolvedRepoLayout,
} from '../layout/layout';
import type { StagedTree } from './stagedTree';
import { YamlFile } from './yamlFile';

const isYaml = (path: string) => /\.ya?ml$/.test(path);

/**
 * Keys (`<kind>/<name>`, e.g. `EC2NodeClass/gpu`) of the node classes defined in the files of the
 * cluster's pool folder and GPU folder, except `exceptPath` (the file about to
 * be written).
 */
export async function nodeClassesElsewhere(
  staged: StagedTree,
  layout: ResolvedRepoLayout,
  cluster: string,
  exceptPath: string,
): Promise<Set<string>> {
  const folders = new Set([
    layoutPrefix(layout, 'nodePool', { cluster }, 'pool'),
    `${posix.dirname(clusterKustomizationPath(layout, cluster))}/`,
  ]);
  const paths = new Set<string>();
  for (const folder of folders) {
    for (const path of await staged.list(folder)) paths.add(path);
  }
  const found = new Set<string>();
  for (const path of [...paths].sort()) {
    if (path === exceptPath || !isYaml(path)) continue;
    try {
      for (const value of YamlFile.parse(
        path,
        await staged.read(path),
      ).values()) {
        const obj = value as KubernetesObject | null;
        if (
          obj?.kind &&
          NODE_CLASS_KINDS.includes(obj.kind) &&
          obj.metadata?.name
        ) {
          found.add(`${obj.kind}/${obj.metadata.name}`);
        }
      }
    } catch {
      // unparseable neighbours are reported by validateGitOpsTree, not here
    }
  }
  return found;
}
