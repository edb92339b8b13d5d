/**
 * The hand-written NodeOverlays that may reach a cluster's pools from
 * outside its folder: a folder of no cluster (`infrastructure/karpenter/`,
 * applied to every cluster) may hold them, and Karpenter applies an overlay
 * to every node it matches, whatever file it came from (Karpenter docs,
 * "NodeOverlays", v1.14). What reaches a cluster is the layout's rule
 * (`pathReachesCluster`: its folder and every folder of no cluster); the
 * cluster's own folder is read with its pools, so here only the rest. Without them, the Karpenter
 * Blueprints' overlays kept in a shared folder left a pool's
 * `nvidia.com/gpu: 40` (10 GPUs, 4 slices each) read as a floor of 40 GPUs.
 */
import type { PlainObject } from '../../repo/yamlObjects';
import { isPlainObject, isYamlPath } from '../../repo/yamlObjects';
import { clusterOwningPath, type LayoutInput } from '../../layout/layout';
import { filesMentioning } from '../../repo/filesMentioning';
import { parseFiles } from '../../repo/parseFiles';
import type { ParseCache } from '../../repo/parseCache';
import type { RepoTree } from '../../repo/tree';

/** The NodeOverlays of the YAML files in no cluster's folder; a file that does not parse gives none (validate reports it). */
export async function sharedNodeOverlays(
  tree: RepoTree,
  layout: LayoutInput,
  parses?: ParseCache,
): Promise<PlainObject[]> {
  const outside = (await tree.listFiles('')).filter(
    path => isYamlPath(path) && clusterOwningPath(layout, path) === undefined,
  );
  const candidates = await filesMentioning(tree, outside, ['NodeOverlay'], {
    parses,
  });
  return (await parseFiles(tree, candidates, [], parses))
    .flat()
    .map(document => document.value)
    .filter(
      (value): value is PlainObject =>
        isPlainObject(value) && value.kind === 'NodeOverlay',
    );
}
