import { clusterScopePath, type ResolvedRepoLayout } from '../../layout/layout';
import { getIn } from '../../repo/yamlObjects';
import type { StagedTree } from '../stagedTree';
import { YamlFile } from '../yamlFile';

const isYaml = (path: string) => /\.ya?ml$/.test(path);

/**
 * Every NodePool in the cluster's folder as the change leaves it, managed or
 * written by hand: what still selects a node class or a config.
 */
export async function clusterNodePools(
  staged: StagedTree,
  layout: ResolvedRepoLayout,
  cluster: string,
): Promise<unknown[]> {
  const nodePools: unknown[] = [];
  for (const path of await staged.list(clusterScopePath(layout, cluster))) {
    if (!isYaml(path)) continue;
    let file: YamlFile;
    try {
      file = YamlFile.parse(path, await staged.read(path));
    } catch {
      continue; // an unparseable neighbour is validate's to report
    }
    for (const value of file.values()) {
      if (getIn(value, 'kind') === 'NodePool') nodePools.push(value);
    }
  }
  return nodePools;
}
