/**
 * Finds the existing workload a GPU request names, in the repository as it
 * is: plain manifests, Kustomize bases and overlays, Deployments,
 * StatefulSets, Jobs and CronJobs. Decides how the GPU change is applied: a
 * patch file in the kustomization that deploys the workload to this cluster,
 * or an edit of the manifest itself when no kustomization includes it.
 *
 * Anything it cannot patch correctly is refused with what to do instead, and
 * nothing is written: a workload that is not in the repository, has another
 * kind, is rendered by Helm or by an operator, is deployed by several
 * overlays none of which is named after the cluster, or is deployed (or
 * written) only in a place named after another cluster of the repository.
 */
import {
  MANAGED_BY,
  scaledByKustomizeReplicas,
  WELL_KNOWN_KEYS,
  type GpuRequest,
  type WorkloadKind,
} from '@gpu-gitops/plugin-gpu-common';
import type { LayoutInput } from '../layout/layout';
import { repositoryClusters } from '../layout/repositoryClusters';
import type { RepoTree } from '../repo/tree';
import { getIn, type PlainObject } from '../repo/yamlObjects';
import {
  existingWorkloadField as field,
  refuse,
} from './existingWorkloadRefusal';
import { chainsFromRoots, type KustomizationIndex } from './kustomizations';
import { locateObjectsNamed } from './locate';
import { refuseMissingWorkload } from './missingWorkload';

/**
 *  How the GPU change reaches the workload.
 *
 * @public
 */
export type ExistingWorkloadApply =
  | {
      mode: 'patch';
      /** The root kustomization that deploys the workload to this cluster. */
      root: string;
      /** The kustomization folder that gets the patch file. */
      patchFolder: string;
      /** Path of that folder's kustomization file. */
      kustomization: string;
      /**
       * The kustomization whose `replicas:` entry sets the workload's count
       * (the outermost of the chain): kustomize applies it after every patch,
       * so a changed count goes there, not into the patch.
       */
      replicasEntry?: string;
    }
  | { mode: 'in-place' };

/** @public */
export interface ExistingWorkloadLocation {
  kind: WorkloadKind;
  name: string;
  /** Where the workload runs (the request's namespace). */
  namespace: string;
  /** The file holding its manifest, and the document's index in it. */
  file: string;
  documentIndex: number;
  /** `metadata.namespace` as the manifest writes it. */
  manifestNamespace?: string;
  /** The manifest as written. */
  manifest: PlainObject;
  apply: ExistingWorkloadApply;
}

function rootsReaching(index: KustomizationIndex, folder: string): Set<string> {
  return new Set(chainsFromRoots(index, folder).map(chain => chain[0]));
}

/**
 * The kustomization that gets the patch: the deepest one on the chain that
 * only this root builds (a base shared with other overlays must not change
 * them), moved up through overlays that do nothing but include it, so an
 * overlay named after the environment holds the patch rather than its base.
 */
function patchFolderOf(index: KustomizationIndex, chain: string[]): string {
  const root = chain[0];
  const onlyThisRoot = (folder: string) => {
    const roots = rootsReaching(index, folder);
    return roots.size === 1 && roots.has(root);
  };
  let at = chain.length - 1;
  while (at > 0 && !onlyThisRoot(chain[at])) at--;
  while (at > 0) {
    const parent = index.byFolder.get(chain[at - 1]);
    const pureOverlay =
      parent !== undefined &&
      parent.files.length === 0 &&
      parent.folders.length === 1 &&
      parent.folders[0] === chain[at] &&
      onlyThisRoot(parent.folder);
    if (!pureOverlay) break;
    at--;
  }
  return chain[at];
}

function segmentsOf(path: string): string[] {
  return path.split('/');
}

/**
 * The other cluster a path is named after (a folder called like one of the
 * repository's clusters, and none called like `cluster`), if any: what is
 * deployed from there runs on that cluster, whose nodes do not have this
 * cluster's pool.
 */
function otherClusterNaming(
  path: string,
  cluster: string,
  otherClusters: string[],
): string | undefined {
  const segments = segmentsOf(path);
  if (segments.includes(cluster)) return undefined;
  return otherClusters.find(other => segments.includes(other));
}

/**
 * Locates the existing workload of `request` in `tree` (a checkout of the
 * whole repository: bases and overlays may live anywhere).
 */
export async function resolveExistingWorkload(
  tree: RepoTree,
  request: GpuRequest,
  options: {
    cluster: string;
    labelDomain: string;
    /** The repository's layout: where its cluster folders are (default layout if omitted). */
    layout?: LayoutInput;
  },
): Promise<ExistingWorkloadLocation> {
  const existing = request.spec.workload.existing;
  if (!existing) {
    throw new Error(
      'resolveExistingWorkload: the request has no existing workload',
    );
  }
  const { kind, name } = existing;
  const namespace = request.metadata.namespace;
  const what = `${kind} "${name}" in namespace "${namespace}"`;
  const { placements, index } = await locateObjectsNamed(tree, name);
  const inNamespace = placements.filter(
    p => p.namespace === undefined || p.namespace === namespace,
  );
  const exact = inNamespace.filter(
    p => p.found.object.kind === kind && p.found.object.metadata.name === name,
  );

  if (exact.length === 0) {
    await refuseMissingWorkload(
      tree,
      { kind, name, namespace },
      placements,
      index,
    );
  }

  const written = singleWrittenObject(exact, what);
  const object = written.object;
  refuseIfManaged(object, what, options.labelDomain);

  const manifestNamespace = getIn(object, 'metadata', 'namespace');
  const base = {
    kind,
    name,
    namespace,
    file: written.file,
    documentIndex: written.documentIndex,
    ...(typeof manifestNamespace === 'string' ? { manifestNamespace } : {}),
    manifest: object,
  };
  const otherClusters = (await repositoryClusters(tree, options.layout)).filter(
    c => c !== options.cluster,
  );
  const refuseOtherCluster = (place: string, where: string) => {
    const other = otherClusterNaming(place, options.cluster, otherClusters);
    if (other === undefined) return;
    refuse(
      field.name,
      'overlay-other-cluster',
      `${what} is ${where} ${place}, which is named after cluster "${other}", not "${options.cluster}": a GPU change there would run on ${other}, whose nodes do not have this request's pool. Add an overlay for cluster "${options.cluster}" that deploys it (a folder named after the cluster), or request GPUs on cluster "${other}".`,
    );
  };
  const chains = exact.filter(p => p.chain.length > 0);
  if (chains.length === 0) {
    refuseOtherCluster(base.file, 'written only in');
    return { ...base, apply: { mode: 'in-place' } };
  }

  const chain = deployingChain(chains, what, options.cluster);
  refuseOtherCluster(chain[0], 'deployed only by');
  return { ...base, apply: patchApply(index, chain, kind, name) };
}

/** Of the kustomization roots that deploy the workload, the one named after the cluster, if several. */
function deployingChain(
  chains: Array<{ chain: string[] }>,
  what: string,
  cluster: string,
): string[] {
  const byRoot = new Map(chains.map(p => [p.chain[0], p.chain]));
  let roots = [...byRoot.keys()].sort();
  if (roots.length > 1) {
    const named = roots.filter(r => segmentsOf(r).includes(cluster));
    if (named.length === 1) roots = named;
    else {
      refuse(
        field.name,
        'overlay-ambiguous',
        `${what} is deployed by ${roots.length} kustomizations (${roots.join(', ')})${named.length === 0 ? `, and none is named after cluster "${cluster}"` : ''}: the GPU patch must go into the one that deploys to this cluster. Name that overlay folder after the cluster.`,
      );
    }
  }
  return byRoot.get(roots[0])!;
}

/** The patch's place on the chain, and the kustomization whose `replicas:` entry sets the count. */
function patchApply(
  index: KustomizationIndex,
  chain: string[],
  kind: WorkloadKind,
  name: string,
): ExistingWorkloadApply {
  const patchFolder = patchFolderOf(index, chain);
  // The outermost `replicas:` entry wins, being applied last.
  const replicasFolder = scaledByKustomizeReplicas(kind)
    ? chain.find(
        folder => index.byFolder.get(folder)?.replicas[name] !== undefined,
      )
    : undefined;
  return {
    mode: 'patch',
    root: chain[0],
    patchFolder,
    kustomization: index.byFolder.get(patchFolder)!.file,
    ...(replicasFolder
      ? { replicasEntry: index.byFolder.get(replicasFolder)!.file }
      : {}),
  };
}

/** The one place the workload is written; several are refused (which one would the patch mean?). */
function singleWrittenObject<T extends { file: string; documentIndex: number }>(
  exact: Array<{ found: T }>,
  what: string,
): T {
  const objects = [
    ...new Map(
      exact.map(p => [`${p.found.file}#${p.found.documentIndex}`, p.found]),
    ).values(),
  ];
  if (objects.length > 1) {
    refuse(
      field.name,
      'workload-ambiguous',
      `${what} is written in ${objects.length} places (${objects.map(o => o.file).join(', ')}): keep one, then request again.`,
    );
  }
  return objects[0];
}

/** A workload the product created belongs to its request: change that request instead. */
function refuseIfManaged(
  object: PlainObject,
  what: string,
  labelDomain: string,
): void {
  const labels = getIn(object, 'metadata', 'labels') as
    Record<string, unknown> | undefined;
  if (labels?.[WELL_KNOWN_KEYS.managedBy] !== MANAGED_BY) return;
  const owner = getIn(
    object,
    'metadata',
    'annotations',
    `${labelDomain}/request`,
  );
  refuse(
    field.name,
    'workload-managed',
    `${what} was created by the GPU self-service${typeof owner === 'string' ? ` for request ${owner}` : ''}: change that request instead of patching its workload.`,
  );
}
