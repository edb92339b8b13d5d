/**
 * Where a cluster's node classes (EC2NodeClass, AKSNodeClass) already live.
 * A class is written once: kustomize rejects two objects with one kind and
 * name in a build, and two roots applying one object with different specs
 * overwrite each other in the cluster (an import leaves a team's converted
 * node class where it was, e.g. `clusters/<cluster>/karpenter/`).
 */
import {
  NODE_CLASS_KINDS,
  type KubernetesObject,
} from '@gpu-gitops/plugin-gpu-common';
import type { ResolvedRepoLayout } from '../layout/layout';
import { filesMentioning } from '../repo/filesMentioning';
import { sharedParseCache } from '../repo/parseCache';
import { parseFiles } from '../repo/parseFiles';
import { parseYamlDocuments } from '../repo/yamlObjects';
import { clusterFolderYamlFiles } from './clusterFolderYamlFiles';
import type { StagedTree } from './stagedTree';

/**
 * Keys (`<kind>/<name>`, e.g. `EC2NodeClass/gpu`) of the node classes defined
 * in the files of the cluster's folder, pool folder and GPU folder, as the
 * change leaves them, except `exceptPath` (the file about to be written).
 */
export async function nodeClassesElsewhere(
  staged: StagedTree,
  layout: ResolvedRepoLayout,
  cluster: string,
  exceptPath: string,
): Promise<Set<string>> {
  const paths = (
    await clusterFolderYamlFiles(folder => staged.list(folder), layout, cluster)
  ).filter(path => path !== exceptPath);
  // A file the change writes is parsed as staged. One it leaves is read
  // only if it names a node class kind (a cluster's folder may hold every
  // app of the cluster), unless its parse is kept: every pool file names
  // its node class, and on a 2k-pool cluster the read of the state parsed
  // them all already.
  const written = paths.filter(path => staged.writes(path));
  const left = await filesMentioning(
    staged.base,
    paths.filter(path => !staged.writes(path)),
    NODE_CLASS_KINDS,
    { parses: sharedParseCache },
  );
  // Unparseable neighbours are reported by validateGitOpsTree, not here.
  const values = [
    ...(await parseFiles(staged.base, left, [], sharedParseCache)).flat(),
    ...(
      await Promise.all(
        written.map(async path =>
          parseYamlDocuments(path, (await staged.read(path)) ?? ''),
        ),
      )
    ).flatMap(parsed => parsed.documents),
  ].map(document => document.value as KubernetesObject | null);
  const found = new Set<string>();
  for (const obj of values) {
    if (
      obj?.kind &&
      NODE_CLASS_KINDS.includes(obj.kind) &&
      obj.metadata?.name
    ) {
      found.add(`${obj.kind}/${obj.metadata.name}`);
    }
  }
  return found;
}
