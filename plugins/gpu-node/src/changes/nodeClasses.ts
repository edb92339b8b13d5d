/**
 * Where a cluster's node classes (EC2NodeClass, AKSNodeClass) already live.
 * A class is written once: kustomize rejects two objects with one kind and
 * name in a build, and two roots applying one object with different specs
 * overwrite each other in the cluster (an import leaves a team's converted
 * node class where it was, e.g. `clusters/<cluster>/karpenter/`).
 */
import { posix } from 'path';
import {
  NODE_CLASS_KINDS,
  type KubernetesObject,
} from '@gpu-gitops/plugin-gpu-common';
import {
  clusterKustomizationPath,
  clusterScopePath,
  layoutPrefix,
  type ResolvedRepoLayout,
} from '../layout/layout';
import { eventLoopTurns } from '../repo/eventLoopTurns';
import type { StagedTree } from './stagedTree';
import { YamlFile } from './yamlFile';

const isYaml = (path: string) => /\.ya?ml$/.test(path);

/**
 * Keys (`<kind>/<name>`, e.g. `EC2NodeClass/gpu`) of the node classes defined
 * in the files of the cluster's folder, pool folder and GPU folder (the
 * layout may put the last two elsewhere), except `exceptPath` (the file about
 * to be written).
 */
export async function nodeClassesElsewhere(
  staged: StagedTree,
  layout: ResolvedRepoLayout,
  cluster: string,
  exceptPath: string,
): Promise<Set<string>> {
  const folders = new Set([
    `${clusterScopePath(layout, cluster)}/`,
    layoutPrefix(layout, 'nodePool', { cluster }, 'pool'),
    `${posix.dirname(clusterKustomizationPath(layout, cluster))}/`,
  ]);
  const paths = new Set<string>();
  for (const folder of folders) {
    for (const path of await staged.list(folder)) paths.add(path);
  }
  const found = new Set<string>();
  // Every pool file names its node class: on a 2k-pool cluster this parses
  // them all, so the backend answers its API between slices.
  const turn = eventLoopTurns();
  for (const path of [...paths].sort()) {
    await turn();
    if (path === exceptPath || !isYaml(path)) continue;
    const text = await staged.read(path);
    // A cluster's folder may hold every app of the cluster: parse only
    // files that may define a node class.
    if (!text || !NODE_CLASS_KINDS.some(kind => text.includes(kind))) continue;
    try {
      for (const value of YamlFile.parse(path, text).values()) {
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
