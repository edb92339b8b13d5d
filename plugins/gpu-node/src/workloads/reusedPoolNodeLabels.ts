/**
 * The labels a reused pool's nodes carry as its file declares them: a
 * NodePool's template labels and its requirements (`In`: those values;
 * `Exists`: any value). An adopted, hand-written NodePool often labels its
 * nodes for its teams (`intent: gpu-workloads`); a workload selecting such a
 * label fits the pool and keeps its selector.
 */
import type { Plan } from '@gpu-gitops/plugin-gpu-common';
import type { RepoTree } from '../repo/tree';
import { getIn, parseYamlDocuments } from '../repo/yamlObjects';

type NodeLabels = NonNullable<Plan['pool']['nodeLabels']>;

function requirementLabels(requirements: unknown): NodeLabels {
  const labels: NodeLabels = {};
  for (const r of Array.isArray(requirements) ? requirements : []) {
    const key = getIn(r, 'key');
    const values = getIn(r, 'values');
    if (typeof key !== 'string') continue;
    if (getIn(r, 'operator') === 'Exists') labels[key] = 'any';
    if (getIn(r, 'operator') === 'In' && Array.isArray(values)) {
      labels[key] = values.map(String);
    }
  }
  return labels;
}

/** The reused pool's node labels from its file, or undefined (a new pool, or no NodePool found). */
export async function reusedPoolNodeLabels(
  tree: RepoTree,
  plan: Plan,
): Promise<NodeLabels | undefined> {
  const { reused, path, name } = plan.pool;
  if (!reused || !path) return undefined;
  const text = await tree.readFile(path);
  if (text === undefined) return undefined;
  const pool = parseYamlDocuments(path, text).documents.find(
    d =>
      getIn(d.value, 'kind') === 'NodePool' &&
      getIn(d.value, 'metadata', 'name') === name,
  )?.value;
  if (pool === undefined) return undefined;
  const template = getIn(pool, 'spec', 'template');
  const labels = getIn(template, 'metadata', 'labels');
  return {
    ...requirementLabels(getIn(template, 'spec', 'requirements')),
    ...Object.fromEntries(
      Object.entries(
        typeof labels === 'object' && labels !== null ? labels : {},
      ).map(([k, v]) => [k, [String(v)]]),
    ),
  };
}
