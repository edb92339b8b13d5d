/**
 * The last check before anything is written or pushed: every kustomization
 * root the change touches is built with the real kustomize, before and after
 * the change, and the difference must be exactly what the plan says.
 *
 * - A root that built before must build after (a duplicate NodePool name, a
 *   dangling config entry or a patch that matches nothing fails here).
 * - Nothing disappears; the only new objects are the product's own (and
 *   the ConfigMaps its generators make).
 * - Objects the product does not manage are byte-for-byte the same.
 * - The workload that gets GPUs: the chosen container has exactly the
 *   planned GPU resource, every other container and every other field is
 *   as it was, the replica count is the requested one.
 * - Its pods can land on the plan's pool and on no other pool the roots
 *   build (node selector, required affinity, tolerations, GPU resources:
 *   gpu-common `scheduling/`).
 *
 * A failure is a bug or a repository the product cannot change safely; it is
 * reported as a GpuInputError (rule `verify`) and nothing is written.
 */
import {
  GpuInputError,
  type ClusterGpuStack,
  type ClusterProfile,
  type GpuCatalog,
  type Plan,
  type WorkloadKind,
} from '@gpu-gitops/plugin-gpu-common';
import type { BuiltObject } from '../kustomize/build';
import type { BuildRootOptions } from '../kustomize/buildRoot';
import { parseYamlFile } from '../repo/readDocuments';
import { getIn } from '../repo/yamlObjects';
import { deepEqual } from './canonical';
import { checkGpuWorkload, describeBuilt } from './gpuWorkloadCheck';
import { isManagedObject } from './ownership';
import { isGpuConfigsDelivery } from './workloadCluster/gpuConfigsDelivery';
import {
  carriedCopyProblems,
  carriedGpuConfigMaps,
} from './workloadCluster/carriedCopies';
import { plannedPoolLanding } from './plannedPoolLanding';
import {
  buildTouchedRoots,
  builtObjectId,
  readAfterChange,
  type RootBuild,
  type StageRunner,
} from './rootBuilds';
import type { ChangeSet } from './types';
import { FsRepoTree, type RepoTree } from '../repo/tree';
import { POOL_OBJECT_KINDS } from '../repo/machineDeploymentPools';
import { changesOnlyTopologyEntries } from '../repo/topologyMachineDeployments';
import { processTurns } from '../repo/eventLoopTurns';

export interface VerifyChangeOptions {
  /** The checkout the change was computed on (the base). */
  dir: string;
  changeSet: ChangeSet;
  plan: Plan;
  cluster: ClusterProfile;
  /** The container of an existing workload that gets the GPU. */
  existing?: {
    kind: WorkloadKind;
    name: string;
    container: string;
    /**
     * The plain manifest the change patched in place (no kustomization
     * deploys it): the document whose pods are judged when no root builds it.
     */
    inPlace?: { file: string; documentIndex: number };
  };
  kustomize?: BuildRootOptions;
  /** The catalog the plan was made with (GPUs per node of the pools' machines). */
  catalog?: GpuCatalog;
  /** What the repository runs on the cluster's GPU nodes (`RepoState.gpuStack`). */
  gpuStack?: ClusterGpuStack;
  /** Times each kustomize build (for the caller's report). */
  stage?: StageRunner;
  /** Reads `dir` (the pass's reader: what it read already is not read again). */
  tree?: RepoTree;
}

/** @public */
export interface VerifyChangeResult {
  /** Roots built before and after. */
  verified: string[];
  /** Roots that did not build on the base either: not ours to fix, not verified. */
  unverifiable: { root: string; reason: string }[];
  /**
   * The built pools the GPU workload's pods can land on (exactly the plan's
   * pool, or the change is refused); absent when the roots the change
   * touches build no pool of the plan's name.
   */
  landsOn?: string[];
}

type Built = BuiltObject;

function refuse(message: string): never {
  throw new GpuInputError([{ path: 'repository', rule: 'verify', message }]);
}

/** The pools whose objects the plan may change: its pool and the pools it leaves. */
const plannedPoolNames = (plan: Plan) => [
  plan.pool.name,
  ...plan.leftPools.map(p => p.name),
];

/** True when a changed object is one the plan may change. */
function mayChange(
  old: Built,
  o: Built,
  plan: Plan,
  cluster: ClusterProfile,
): boolean {
  if (isGpuConfigsDelivery(o)) return true;
  // A topology pool's ledger and size are on its Cluster's worker entry.
  if (o.kind === 'Cluster') {
    return changesOnlyTopologyEntries(old, o, plannedPoolNames(plan));
  }
  if (POOL_OBJECT_KINDS.includes(o.kind)) {
    return plannedPoolNames(plan).includes(o.metadata.name);
  }
  if (o.kind === 'ConfigMap') {
    const ns = o.metadata.namespace;
    return [cluster.devicePluginConfigMap, cluster.migPartedConfigMap].some(
      ref => ref.name === o.metadata.name && ref.namespace === ns,
    );
  }
  return isManagedObject(o);
}

/** A generated config ConfigMap may gain keys (and the mig config its entries); old keys keep their content. */
function configMapProblems(before: Built, after: Built): string[] {
  const oldData = (getIn(before, 'data') as Record<string, string>) ?? {};
  const newData = (getIn(after, 'data') as Record<string, string>) ?? {};
  return Object.keys(oldData)
    .filter(key => key !== 'config.yaml' && newData[key] !== oldData[key])
    .map(key => `${describeBuilt(after)}: key "${key}" changed or went away`);
}

/**
 * A root's built objects by id, with the GPU ConfigMaps a management root
 * carries to its workload cluster: judged as if built, since only those
 * reach the device plugin there.
 */
function objectsWithCarriedById(
  objects: Built[],
  cluster: ClusterProfile,
): Map<string, Built> {
  return new Map(
    [...objects, ...carriedGpuConfigMaps(objects, cluster)].map(o => [
      builtObjectId(o),
      o,
    ]),
  );
}

/** True when `o` is the workload that gets the GPU: the existing one, or the request's new Deployment. */
function isGpuWorkload(o: Built, options: VerifyChangeOptions): boolean {
  const { existing, plan } = options;
  const kind = existing ? existing.kind : 'Deployment';
  const name = existing ? existing.name : plan.request.metadata.name;
  return (
    o.kind === kind &&
    o.metadata.name === name &&
    o.metadata.namespace === plan.request.metadata.namespace
  );
}

/** What judging a root's objects needs, across the roots of one change. */
interface Judging {
  options: VerifyChangeOptions;
  /** Every root's objects after the change: where the GPU workload's pods may land. */
  after: { root: string; objects: Built[] }[];
  /** The GPU workloads whose landing was judged: the same workload built by two roots lands alike. */
  landed: Set<string>;
  result: VerifyChangeResult;
}

export async function verifyChange(
  options: VerifyChangeOptions,
): Promise<VerifyChangeResult> {
  const { dir, changeSet, plan } = options;
  const result: VerifyChangeResult = { verified: [], unverifiable: [] };
  // A reused pool the change leaves untouched (a re-render, a workload
  // patch only) is still where the pods must land: its roots are built too.
  const builds = await buildTouchedRoots(
    dir,
    changeSet,
    options.kustomize,
    options.stage,
    options.tree,
    plan.pool.path ? [plan.pool.path] : [],
  );
  const judging: Judging = {
    options,
    after: builds.flatMap(b =>
      b.after.objects ? [{ root: b.root, objects: b.after.objects }] : [],
    ),
    landed: new Set<string>(),
    result,
  };
  const readAfter = readAfterChange(
    options.tree ?? new FsRepoTree(dir),
    changeSet,
  );
  const problems: string[] = [];
  for (const build of builds) {
    if (!builtBothWays(build, result)) continue;
    problems.push(...(await rootProblems(build, readAfter, judging)));
    result.verified.push(build.root);
  }
  if (options.existing && judging.landed.size === 0) {
    problems.push(...(await inPlaceLanding(options, judging.after, result)));
  }
  if (problems.length > 0) {
    refuse(
      `the change does not mean what the plan says, so nothing was written:\n- ${problems.join('\n- ')}`,
    );
  }
  return result;
}

/**
 * True when the root built before and after the change. A root the change
 * breaks is refused; one that did not build on the base either is not ours
 * to fix: unverifiable.
 */
function builtBothWays(build: RootBuild, result: VerifyChangeResult): boolean {
  const { root, before: was, after: now } = build;
  if (now.error !== undefined && was.error === undefined) {
    refuse(
      `the change would break \`kustomize build ${root}\`: ${now.error}. Nothing was written.`,
    );
  }
  if (was.error === undefined) return true;
  result.unverifiable.push({ root, reason: was.error });
  return false;
}

/** What differs in a root's build, before and after, beyond what the plan says. */
async function rootProblems(
  build: RootBuild,
  readAfter: (path: string) => Promise<string | undefined>,
  judging: Judging,
): Promise<string[]> {
  const { root } = build;
  const { options } = judging;
  const before = objectsWithCarriedById(build.before.objects!, options.cluster);
  const next = objectsWithCarriedById(build.after.objects!, options.cluster);
  const problems: string[] = [];
  for (const [id, o] of before) {
    if (!next.has(id))
      problems.push(`${root}: ${describeBuilt(o)} would disappear`);
  }
  problems.push(
    ...(await carriedCopyProblems(build, readAfter, options.cluster)),
  );
  // A scale cluster's root builds thousands of objects, each compared:
  // the backend answers between slices.
  for (const [id, o] of next) {
    await processTurns();
    const old = before.get(id);
    problems.push(
      ...(isGpuWorkload(o, options)
        ? await gpuWorkloadProblems(root, id, { old, o }, judging)
        : objectChangeProblems(old, o, options).map(p => `${root}: ${p}`)),
    );
  }
  return problems;
}

/**
 * The GPU workload: its GPU fields as planned, the rest as it was
 * (`gpuWorkloadCheck.ts`), and its pods landing on the plan's pool only,
 * judged once however many roots build it.
 */
async function gpuWorkloadProblems(
  root: string,
  id: string,
  built: { old: Built | undefined; o: Built },
  judging: Judging,
): Promise<string[]> {
  const { options, landed, result } = judging;
  const { plan, cluster } = options;
  const kind = (options.existing?.kind ?? 'Deployment') as WorkloadKind;
  const problems = checkGpuWorkload(
    built.old,
    built.o,
    plan,
    cluster,
    kind,
    options.existing?.container ?? plan.request.metadata.name,
    !options.existing,
  ).map(p => `${root}: ${p}`);
  if (landed.has(id)) return problems;
  landed.add(id);
  const landing = await plannedPoolLanding(
    judging.after,
    built.o,
    kind,
    plan,
    cluster,
    options.catalog,
    options.gpuStack,
  );
  if (landing.pools) result.landsOn = landing.pools;
  return [...problems, ...landing.problems.map(p => `${root}: ${p}`)];
}

/**
 * Any other object: a new one is the product's (or a generated ConfigMap),
 * a changed one is one the plan may change, and a GPU ConfigMap keeps its
 * old keys' content.
 */
function objectChangeProblems(
  old: Built | undefined,
  o: Built,
  options: VerifyChangeOptions,
): string[] {
  if (!old) {
    return !isManagedObject(o) && o.kind !== 'ConfigMap'
      ? [`${describeBuilt(o)} would appear, and the product does not manage it`]
      : [];
  }
  if (deepEqual(old, o)) return [];
  if (!mayChange(old, o, options.plan, options.cluster)) {
    return [
      `${describeBuilt(o)} would change, and the product does not manage it`,
    ];
  }
  return o.kind === 'ConfigMap' && !isGpuConfigsDelivery(o)
    ? configMapProblems(old, o)
    : [];
}

/**
 * An existing workload in a plain manifest (no kustomize root builds it) is
 * patched in place: its pods are placed as the written manifest says,
 * among the pools the change's roots build, so that a workload no root
 * builds is judged like one that is built.
 */
async function inPlaceLanding(
  options: VerifyChangeOptions,
  after: { root: string; objects: BuiltObject[] }[],
  result: VerifyChangeResult,
): Promise<string[]> {
  const { kind, inPlace } = options.existing!;
  if (!inPlace) return [];
  const change = options.changeSet.changes.find(c => c.path === inPlace.file);
  if (!change || change.action === 'delete') return [];
  const written = parseYamlFile(change.path, change.content, []).find(
    d => d.index === inPlace.documentIndex,
  )?.value;
  const landing = await plannedPoolLanding(
    after,
    written as BuiltObject,
    kind,
    options.plan,
    options.cluster,
    options.catalog,
    options.gpuStack,
  );
  if (landing.pools) result.landsOn = landing.pools;
  return landing.problems.map(p => `${change.path}: ${p}`);
}
