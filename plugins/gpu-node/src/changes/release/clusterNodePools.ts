import { clusterScopePath, type ResolvedRepoLayout } from '../../layout/layout';
import {
  poolNodeLabels,
  POOL_OBJECT_KINDS,
} from '../../repo/machineDeploymentPools';
import { getIn } from '../../repo/yamlObjects';
import type { StagedTree } from '../stagedTree';
import { YamlFile } from '../yamlFile';

const isYaml = (path: string) => /\.ya?ml$/.test(path);

/** The objects of each YAML file of the cluster's folder, as the change leaves them. */
async function clusterFiles(
  staged: StagedTree,
  layout: ResolvedRepoLayout,
  cluster: string,
): Promise<unknown[][]> {
  const files: unknown[][] = [];
  for (const path of await staged.list(clusterScopePath(layout, cluster))) {
    if (!isYaml(path)) continue;
    try {
      files.push(YamlFile.parse(path, await staged.read(path)).values());
    } catch {
      continue; // an unparseable neighbour is validate's to report
    }
  }
  return files;
}

/**
 * Every NodePool in the cluster's folder as the change leaves it, managed or
 * written by hand: what still selects a node class.
 */
export async function clusterNodePools(
  staged: StagedTree,
  layout: ResolvedRepoLayout,
  cluster: string,
): Promise<unknown[]> {
  return (await clusterFiles(staged, layout, cluster)).flatMap(values =>
    values.filter(value => getIn(value, 'kind') === 'NodePool'),
  );
}

/**
 * The labels every pool of the cluster's folder puts on its nodes, as the
 * change leaves it, managed or written by hand: NodePools, and Cluster API
 * MachineDeployments through their kubelet registration (what still selects
 * a device-plugin or MIG config).
 */
export async function clusterPoolNodeLabels(
  staged: StagedTree,
  layout: ResolvedRepoLayout,
  cluster: string,
): Promise<Record<string, string>[]> {
  return (await clusterFiles(staged, layout, cluster)).flatMap(values =>
    values
      .filter(value => POOL_OBJECT_KINDS.includes(String(getIn(value, 'kind'))))
      .map(pool => poolNodeLabels(pool, values)),
  );
}
