/**
 * NodeOverlays a team wrote that reach the plan's pool: they name it by
 * `karpenter.sh/nodepool`, or, unscoped, their requirements match some of
 * its instance types (`overlayReach`, the rule `validate` reports such an
 * overlay by). Karpenter merges the overlays that match an
 * instance type, and of two with the same weight that set the same capacity
 * on it, the conflicting one is not applied (Karpenter docs, "NodeOverlays",
 * v1.14; kubernetes-sigs/karpenter `pkg/controllers/nodeoverlay`). So the
 * product writes no overlay of its own for the GPU counts the team's already
 * cover: the same count would be a duplicate, another count a contradiction
 * Karpenter settles by name, not by truth. A contradiction is said in the
 * pull request; the team's overlay stays as written.
 */
import {
  KARPENTER_GPU_COUNT_LABELS,
  type ClusterProfile,
  type GpuCatalog,
  type KubernetesObject,
  type ManifestSet,
  type Plan,
} from '@gpu-gitops/plugin-gpu-common';
import {
  countsOfOverlay,
  type OverlayCount,
} from '../import/sharing/overlaySlices';
import type { BuiltObject } from '../kustomize';
import { resolveLayout, type LayoutInput } from '../layout/layout';
import { clusterFolderYamlFiles } from './clusterFolderYamlFiles';
import type { RepoTree } from '../repo/tree';
import {
  getIn,
  isPlainObject,
  parseCount,
  stringRecord,
  type PlainObject,
} from '../repo/yamlObjects';
import { filesMentioning } from '../repo/filesMentioning';
import { sharedParseCache, type ParseCache } from '../repo/parseCache';
import { parseFiles } from '../repo/parseFiles';
import { overlayReach } from '../validate/foreignNodeOverlayRules';
import { isManagedObject } from './ownership';
import { sharedNodeOverlays } from '../import/sharing/sharedNodeOverlays';

/**
 * The NodeOverlays not written by the product that reach the cluster: in
 * its own, pool and GPU folders, and in every folder of no cluster
 * (`sharedNodeOverlays`: `infrastructure/karpenter/`, applied to every
 * cluster). Karpenter applies an overlay whatever file it came from.
 */
async function handWrittenOverlays(
  tree: RepoTree,
  layout: LayoutInput,
  cluster: string,
  cache: ParseCache | undefined,
): Promise<PlainObject[]> {
  // Only the files that name a NodeOverlay are read (a cluster's folder may
  // hold every app of the cluster), and those whose parse is kept: the
  // product's pool files, parsed by the read of the cluster's state, hold
  // its NodeOverlays. An unparseable neighbour is validate's to report.
  const parses = cache ?? sharedParseCache;
  const candidates = await filesMentioning(
    tree,
    await clusterFolderYamlFiles(
      folder => tree.listFiles(folder),
      layout,
      cluster,
    ),
    ['NodeOverlay'],
    { parses },
  );
  const own = (await parseFiles(tree, candidates, [], parses))
    .flat()
    .map(document => document.value)
    .filter(
      (value): value is PlainObject =>
        isPlainObject(value) && value.kind === 'NodeOverlay',
    );
  return [...own, ...(await sharedNodeOverlays(tree, layout, parses))].filter(
    overlay => !isManagedObject(overlay),
  );
}

/** The GPU count of the nodes one of the product's overlays is for. */
function gpuCountOf(overlay: KubernetesObject): number | undefined {
  const requirements = getIn(overlay, 'spec', 'requirements');
  const byCount = Array.isArray(requirements)
    ? requirements.find(r => KARPENTER_GPU_COUNT_LABELS.includes(r?.key))
    : undefined;
  return parseCount(byCount?.values?.[0]);
}

/** The team's counts that set a capacity `overlay` sets, on nodes of its GPU count (all nodes when theirs cannot tell). */
function coveringCounts(
  overlay: KubernetesObject,
  counts: readonly OverlayCount[],
): OverlayCount[] {
  const capacity = stringRecord(getIn(overlay, 'spec', 'capacity'));
  const gpus = gpuCountOf(overlay);
  return counts.filter(
    c =>
      capacity[c.resource] !== undefined &&
      (c.gpusPerNode === undefined || c.gpusPerNode === gpus),
  );
}

/** Says what a covering count means for the product's overlay. */
function describeCover(
  overlay: KubernetesObject,
  count: OverlayCount,
  pool: string,
): { agrees: boolean; text: string } {
  const planned = stringRecord(getIn(overlay, 'spec', 'capacity'))[
    count.resource
  ];
  const nodes =
    count.gpusPerNode === undefined
      ? 'every node'
      : `nodes of ${count.gpusPerNode} GPU(s)`;
  if (parseCount(planned) === count.perNode) {
    return {
      agrees: true,
      text: `${count.overlay}, written by hand, already tells Karpenter ${count.perNode} ${count.resource} for ${nodes} of pool ${pool}: the product adds no ${overlay.metadata.name} beside it.`,
    };
  }
  return {
    agrees: false,
    text: `${count.overlay}, written by hand, tells Karpenter ${count.perNode} ${count.resource} for ${nodes} of pool ${pool}, while they advertise ${planned}: Karpenter sizes the pool by it, so it launches too many or too few nodes. The product leaves it as written and adds no ${overlay.metadata.name} (two overlays of one weight setting the same capacity conflict); set its capacity to ${planned}.`,
  };
}

/**
 * The plan and manifests with none of the product's NodeOverlays that the
 * team's own cover (each such overlay named in the plan: an agreeing one in
 * its explanation, a contradicting one in its warnings).
 */
export async function keepHandWrittenOverlays(
  tree: RepoTree,
  context: {
    layout: LayoutInput;
    cluster: ClusterProfile;
    catalog: GpuCatalog;
    /** What each file content parsed to before (default: the process's shared cache). */
    parseCache?: ParseCache;
  },
  plan: Plan,
  manifests: ManifestSet,
): Promise<{ plan: Plan; manifests: ManifestSet }> {
  const ours = manifests.pool.objects.filter(o => o.kind === 'NodeOverlay');
  if (ours.length === 0) return { plan, manifests };
  const layout = resolveLayout(context.layout);
  const nodePool = manifests.pool.objects.find(o => o.kind === 'NodePool');
  const reachesPool =
    nodePool && overlayReach(nodePool as BuiltObject, context.catalog);
  const theirs = (
    await handWrittenOverlays(
      tree,
      layout,
      context.cluster.name,
      context.parseCache,
    )
  )
    .filter(o => reachesPool !== undefined && reachesPool(o))
    .flatMap(o => countsOfOverlay(o, plan.pool, context.catalog));
  const covered = new Set<KubernetesObject>();
  const explanation: string[] = [];
  const warnings: string[] = [];
  for (const overlay of ours) {
    for (const count of coveringCounts(overlay, theirs)) {
      covered.add(overlay);
      const { agrees, text } = describeCover(overlay, count, plan.pool.name);
      (agrees ? explanation : warnings).push(text);
    }
  }
  if (covered.size === 0) return { plan, manifests };
  return {
    plan: {
      ...plan,
      warnings: [...plan.warnings, ...warnings],
      explanation: [...plan.explanation, ...explanation],
    },
    manifests: {
      ...manifests,
      pool: {
        ...manifests.pool,
        objects: manifests.pool.objects.filter(o => !covered.has(o)),
      },
    },
  };
}
