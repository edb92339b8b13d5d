/**
 * The labels the team's own NFD rules in the cluster's folder put on the
 * nodes of a plan's pool (gpu-common `nfdRulesOnModelNodes`): on a
 * Cluster API or static cluster, a workload selecting such a label (e.g.
 * `gpu-class: a100` for every A100 node) fits the pool and keeps its
 * selector. Karpenter launches no node for such a label: none there.
 */
import {
  nfdRulesOnModelNodes,
  poolProviderOf,
  type ClusterProfile,
  type GpuCatalog,
  type Plan,
} from '@gpu-gitops/plugin-gpu-common';
import { clusterScopePath, type LayoutInput } from '../layout/layout';
import { readFiles } from '../repo/readFiles';
import type { RepoTree } from '../repo/tree';
import { isYamlPath, parseYamlDocuments } from '../repo/yamlObjects';

type NodeLabels = NonNullable<Plan['pool']['nodeLabels']>;

export async function nfdRulePoolLabels(
  tree: RepoTree,
  plan: Plan,
  context: {
    cluster: ClusterProfile;
    catalog: GpuCatalog;
    layout?: LayoutInput;
  },
): Promise<NodeLabels> {
  const { cluster, catalog, layout } = context;
  const model = catalog.models.find(m => m.id === plan.pool.gpuModel);
  if (poolProviderOf(cluster).karpenter || !model) return {};
  const paths = (
    await tree.listFiles(clusterScopePath(layout, cluster.name))
  ).filter(isYamlPath);
  const texts = await readFiles(tree, paths);
  const rules = paths.flatMap((path, i) =>
    texts[i]?.includes('NodeFeatureRule')
      ? parseYamlDocuments(path, texts[i]!).documents.map(d => d.value)
      : [],
  );
  // What every team rule may set: where two disagree, either value.
  const labels: NodeLabels = {};
  for (const rule of nfdRulesOnModelNodes(rules, model)) {
    for (const [key, value] of Object.entries(rule.labels)) {
      labels[key] = [...new Set([...(labels[key] ?? []), value])];
    }
  }
  return labels;
}
