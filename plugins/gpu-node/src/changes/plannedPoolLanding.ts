/**
 * Where the pods of the workload a request gives GPUs to can land, among
 * the pools the change's roots build (gpu-common `scheduling/`): exactly
 * the plan's pool, or the change is refused with what blocks it or what
 * else it could land on.
 */
import {
  builtinCatalog,
  clusterLandingModel,
  landingPools,
  podSchedulingOf,
  unpooledNodesText,
  workloadShape,
  type ClusterGpuStack,
  type ClusterProfile,
  type GpuCatalog,
  type Plan,
  type WorkloadKind,
} from '@gpu-gitops/plugin-gpu-common';
import type { BuiltObject } from '../kustomize/build';
import { nodeOverlaysAmong } from '../repo/nodeOverlaysAmong';
import { getIn } from '../repo/yamlObjects';
import type { BuiltRoot } from '../validate/builtRoots';
import { builtPools } from '../validate/builtPools';
import { gpuConfigMapsOf } from '../validate/gpuConfigMaps';
import type { Finding } from '../validate/findings';
import { servedPoolsInTurns } from '../validate/poolNodeShapes';
import { describeBuilt } from './gpuWorkloadCheck';

/** What the change's roots built, after it. */
export interface BuiltAfter {
  root: string;
  objects: BuiltObject[];
}

/**
 * The NodeOverlays the roots build, each once: an overlay is a cluster-wide
 * object, applied to every NodePool whichever root builds it, and one built
 * by two roots is the same overlay (twice, it would look like a conflict of
 * equal weights).
 */
function builtOverlays(builds: readonly BuiltAfter[]): BuiltObject[] {
  const byName = new Map<string, BuiltObject>();
  for (const object of builds.flatMap(b => b.objects)) {
    if (object.kind === 'NodeOverlay') byName.set(object.metadata.name, object);
  }
  return [...byName.values()];
}

/**
 * The pools the roots build, as node shapes: the device plugin that serves
 * them (`stack`) reads the profile's ConfigMaps, or gives its own config.
 */
async function servedPoolsOf(
  builds: readonly BuiltAfter[],
  cluster: ClusterProfile,
  catalog: GpuCatalog,
  stack: ClusterGpuStack | undefined,
) {
  const roots: BuiltRoot[] = builds.map(b => ({
    folder: b.root,
    file: `${b.root}/kustomization.yaml`,
    folders: [b.root],
    objects: b.objects,
  }));
  const names = {
    devicePlugin: [cluster.devicePluginConfigMap],
    migParted: [cluster.migPartedConfigMap],
  };
  // Findings on the pools are validate's to report; here only what they advertise counts.
  const findings: Finding[] = [];
  const pools = await builtPools(roots, {
    source: { docs: [], patchFiles: new Set() },
    catalog,
    migStrategy: cluster.migStrategy,
    configMaps: new Map(roots.map(r => [r, gpuConfigMapsOf(r.objects, names)])),
    names,
    findings,
    stack,
    // Karpenter applies every overlay of the cluster to every NodePool.
    clusterOverlays: builtOverlays(builds),
  });
  return servedPoolsInTurns(pools, { stack, migStrategy: cluster.migStrategy });
}

/** Where the GPU workload's pods can land, and what is wrong with it. */
export interface PlannedPoolLanding {
  /** The built pools its pods can land on; undefined when the roots build no plan pool (nothing judged). */
  pools?: string[];
  /** It cannot land on the plan's pool (the first reason), or it can land on another pool too. */
  problems: string[];
}

/**
 * The GPU workload's placement among the pools the roots build, and the
 * device plugin serving the plan's pool (`stack`: what the repository runs
 * on the GPU nodes). Nothing is judged when they do not build the plan's
 * pool (it lives in a root the change does not touch).
 */
export async function plannedPoolLanding(
  builds: readonly BuiltAfter[],
  workload: BuiltObject,
  kind: WorkloadKind,
  plan: Plan,
  cluster: ClusterProfile,
  catalog: GpuCatalog = builtinCatalog,
  stack?: ClusterGpuStack,
): Promise<PlannedPoolLanding> {
  const served = await servedPoolsOf(builds, cluster, catalog, stack);
  const planned = served.find(s => s.pool.name === plan.pool.name);
  if (!planned) return { problems: [] };
  // The readers' one model: the team's own GPU nodes no built pool describes
  // take such pods too, and every NodePool's nodes hold what the built
  // NodeOverlays add (the team's reaching the plan's pool included).
  const { shapes } = clusterLandingModel({
    pools: served.map(s => s.shape),
    objects: builds.flatMap(b => b.objects),
    overlays: nodeOverlaysAmong(builtOverlays(builds)),
  });
  const podSpec = getIn(workload, ...workloadShape(kind).podTemplate, 'spec');
  // Every shape judged (not only the narrowest selector's): the plan's pool's refusal is the finding.
  const landing = landingPools(podSchedulingOf(podSpec), shapes);
  const what = describeBuilt(workload);
  const problems = planned.problems.map(
    p => `${what}: its pods cannot run on pool ${plan.pool.name}: ${p}`,
  );
  const refused = landing.refused.find(r => r.pool === plan.pool.name);
  if (refused) {
    problems.push(
      `${what}: its pods cannot land on pool ${plan.pool.name}: ${refused.reason}`,
    );
  }
  const elsewhere = shapes.filter(
    s => s.pool !== plan.pool.name && landing.pools.includes(s.pool),
  );
  const pools = elsewhere.filter(s => !s.unpooled).map(s => s.pool);
  if (pools.length > 0) {
    problems.push(
      `${what}: its pods can also land on pool${pools.length > 1 ? 's' : ''} ${pools.join(', ')}, not only on the plan's pool ${plan.pool.name}`,
    );
  }
  for (const nodes of elsewhere.filter(s => s.unpooled)) {
    problems.push(
      `${what}: its pods can also land on ${unpooledNodesText(nodes)}, not only on the plan's pool ${plan.pool.name}`,
    );
  }
  return { pools: landing.pools, problems };
}
