/**
 * Pools a Helm chart folder of the repository renders: a team keeps its GPU
 * NodePool in a chart of its own (`charts/<name>/templates/nodepool.yaml`,
 * applied by an Argo CD Application's `source.path` or a Flux HelmRelease).
 * Its templates are Go templates (`{{ }}`), not YAML until Helm renders them
 * with the release's values (`sourceTree.ts` skips them), so the nodes of
 * that pool cannot be known here; a workload that lands on no pool the
 * repository's YAML holds may land on them. For such a workload "no pool
 * serves it" is not a finding but a note saying where it may land and how
 * to let the product read that pool.
 */
import { clusterFolderFileHolds } from '../repo/clusterFolderFiles';
import type { GpuWorkload } from './builtWorkloads';
import type { Finding } from './findings';
import type { SourceTree } from './sourceTree';

/** The rules saying a workload's pods land on no pool. */
const LANDS_NOWHERE = new Set([
  'unserved-resource',
  'untolerated-taint',
  'workload-unschedulable',
]);

/** Each chart folder's templates that render a pool object (a NodePool, MachineDeployment, NodeFeatureRule or ComputeClass). */
export async function chartRenderedPools(
  source: Pick<SourceTree, 'tree' | 'files'>,
): Promise<string[]> {
  const charts = source.files
    .filter(f => f === 'Chart.yaml' || f.endsWith('/Chart.yaml'))
    .map(f => f.slice(0, -'Chart.yaml'.length));
  const templates: string[] = [];
  for (const chart of charts) {
    for (const file of source.files.filter(f =>
      f.startsWith(`${chart}templates/`),
    )) {
      const text = (await source.tree.readFile(file)) ?? '';
      if (clusterFolderFileHolds(text).pools) templates.push(file);
    }
  }
  return templates;
}

/**
 * `findings` without the "lands nowhere" ones of workloads not pinned to a
 * pool of the product's, when a chart renders pools (`templates`): each
 * becomes a note.
 */
export function chartPoolFindingsAsNotes(
  findings: Finding[],
  workloads: readonly GpuWorkload[],
  templates: readonly string[],
  notes: string[],
): Finding[] {
  if (templates.length === 0) return findings;
  const unpinned = new Set(
    workloads
      .filter(w => !w.pool)
      .map(w => `${w.object.kind}/${w.object.metadata.name}`),
  );
  const noted = new Set<string>();
  return findings.filter(finding => {
    if (!LANDS_NOWHERE.has(finding.rule) || !unpinned.has(finding.object)) {
      return true;
    }
    if (!noted.has(finding.object)) {
      noted.add(finding.object);
      notes.push(
        `${finding.object} lands on no pool the repository's YAML holds, but its pods may land on the nodes of a pool a Helm chart renders (${templates.join(', ')}): a chart's templates are not YAML until Helm renders them with its release's values, so where they land was not checked. For validate and the import to read that pool, render the chart into the repository (\`helm template\`) or write the pool as plain YAML`,
      );
    }
    return false;
  });
}
