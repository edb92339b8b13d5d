/**
 * A run on one cluster reads its folders, and what they apply from
 * elsewhere (`git/sparseReach.ts`): a folder of no cluster a Flux
 * Kustomization or Argo CD Application of the cluster applies, or its
 * kustomization builds from, holds what the cluster runs (its GPU Operator,
 * its device plugin, its NodeOverlays). Another cluster's folder is that
 * cluster's (`pathReachesCluster`).
 */
import type { SparseReach } from '../git/sparseReach';
import { isKustomizationFile } from '../kustomize/fileNames';
import { pathReachesCluster, type LayoutInput } from '../layout/layout';
import { readFiles } from '../repo/readFiles';
import { referencedFolders } from '../repo/referencedFolders';
import { FsRepoTree } from '../repo/tree';
import { isYamlPath } from '../repo/yamlObjects';
import { clusterFoldersFor } from './sparseFolders';

/**
 * The sparse reach of a run on `cluster`: from its folders, the folders of
 * no cluster they apply or build from, a few rounds deep.
 *
 * @public
 */
export function clusterReach(
  layout: LayoutInput,
  cluster: string,
): SparseReach {
  return {
    from: clusterFoldersFor(layout, cluster).filter(Boolean),
    referenced: async (workDir, folders) => {
      const tree = new FsRepoTree(workDir);
      const listed = new Set<string>();
      for (const folder of folders) {
        for (const path of await tree.listFiles(folder).catch(() => [])) {
          if (isYamlPath(path) || isKustomizationFile(path)) listed.add(path);
        }
      }
      const paths = [...listed].sort();
      const texts = await readFiles(tree, paths);
      const files = paths.flatMap((path, i) => {
        const text = texts[i];
        return text === undefined ? [] : [{ path, text }];
      });
      // A folder's path as a file's in it: the layout tells whose folder it is.
      return referencedFolders(files).filter(folder =>
        pathReachesCluster(layout, cluster, `${folder}/`),
      );
    },
  };
}
