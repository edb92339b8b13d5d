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
  GpuInputError,
  MANAGED_BY,
  scaledByKustomizeReplicas,
  WELL_KNOWN_KEYS,
  WORKLOAD_KINDS,
  type GpuRequest,
  type WorkloadKind,
} from '@gpu-gitops/plugin-gpu-common';
import type { LayoutInput } from '../layout/layout';
import { repositoryClusters } from '../layout/repositoryClusters';
import type { RepoTree } from '../repo/tree';
import { getIn, type PlainObject } from '../repo/yamlObjects';
import { chartFolderRendering } from './helmChartFolders';
import { chainsFromRoots, type KustomizationIndex } from './kustomizations';
import { locateObjectsNamed } from './locate';

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

const field = {
  name: 'spec.workload.existing.name',
  kind: 'spec.workload.existing.kind',
};

function refuse(path: string, rule: string, message: string): never {
  throw new GpuInputError([{ path, rule, message }]);
}

function groupOf(apiVersion: unknown): string {
  const text = typeof apiVersion === 'string' ? apiVersion : '';
  return text.includes('/') ? text.slice(0, text.indexOf('/')) : '';
}

function isHelmRelease(object: PlainObject): boolean {
  const group = groupOf(object.apiVersion);
  if (object.kind === 'HelmRelease' && group.endsWith('fluxcd.io')) return true;
  if (object.kind === 'HelmChart') return true; // k3s / RKE2 helm-controller
  if (object.kind === 'Application' && group === 'argoproj.io') {
    const sources = [
      getIn(object, 'spec', 'source'),
      ...((getIn(object, 'spec', 'sources') as unknown[]) ?? []),
    ];
    return sources.some(
      s => getIn(s, 'chart') !== undefined || getIn(s, 'helm') !== undefined,
    );
  }
  return false;
}

/** Kinds that never render pods of another name: not an operator's input. */
const PLAIN_KINDS = new Set([
  'Service',
  'ConfigMap',
  'Secret',
  'ServiceAccount',
  'Ingress',
  'HorizontalPodAutoscaler',
  'PodDisruptionBudget',
  'NetworkPolicy',
  'PersistentVolumeClaim',
  'Role',
  'RoleBinding',
  'ClusterRole',
  'ClusterRoleBinding',
  'Namespace',
  'ServiceMonitor',
  'PodMonitor',
  'Kustomization',
  'HelmRepository',
  'GitRepository',
  'OCIRepository',
  'ResourceClaimTemplate',
]);

function describe(object: PlainObject, file: string): string {
  return `${String(object.kind)} "${String(getIn(object, 'metadata', 'name'))}" (${String(object.apiVersion)}) in ${file}`;
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
    // Say why, most useful reason first.
    const helm =
      inNamespace.find(p => isHelmRelease(p.found.object)) ??
      [...index.byFolder.values()]
        .filter(k => k.helmReleases.includes(name))
        .map(k => ({ kustomization: k.file }))[0];
    if (helm) {
      const where =
        'found' in helm
          ? describe(helm.found.object, helm.found.file)
          : `the helmCharts of ${helm.kustomization}`;
      refuse(
        field.name,
        'workload-helm',
        `${what} is rendered by Helm (${where}): its manifests are not in the repository, so there is nothing to patch. Set the GPU resources, nodeSelector and tolerations in the chart's values, or request GPUs for a new workload (spec.workload.image).`,
      );
    }
    const chart = await chartFolderRendering(tree, kind, name);
    if (chart) {
      refuse(
        field.name,
        'workload-helm',
        `${what} is rendered by Helm (the chart in ${chart}/, whose templates are not YAML until Helm renders them): its manifest is not in the repository, so there is nothing to patch. Set the GPU resources, nodeSelector and tolerations in the chart's values, or request GPUs for a new workload (spec.workload.image).`,
      );
    }
    const otherKind = inNamespace.find(
      p =>
        p.found.object.metadata.name === name &&
        (WORKLOAD_KINDS as readonly string[]).includes(p.found.object.kind),
    );
    if (otherKind) {
      refuse(
        field.kind,
        'workload-kind',
        `${otherKind.found.file} holds ${otherKind.found.object.kind} "${name}", not a ${kind}: set spec.workload.existing.kind to ${otherKind.found.object.kind}.`,
      );
    }
    const unsupported = inNamespace.find(
      p =>
        p.found.object.metadata.name === name &&
        ['DaemonSet', 'ReplicaSet', 'Pod', 'ReplicationController'].includes(
          p.found.object.kind,
        ),
    );
    if (unsupported) {
      refuse(
        field.kind,
        'workload-kind',
        `${unsupported.found.file} holds ${unsupported.found.object.kind} "${name}": GPU requests give GPUs to a Deployment, StatefulSet, Job or CronJob.`,
      );
    }
    const operator = inNamespace.find(
      p =>
        p.found.object.metadata.name === name &&
        groupOf(p.found.object.apiVersion).includes('.') &&
        !groupOf(p.found.object.apiVersion).endsWith('.k8s.io') &&
        !PLAIN_KINDS.has(p.found.object.kind),
    );
    if (operator) {
      refuse(
        field.name,
        'workload-operator',
        `${what} is not in the repository: ${describe(operator.found.object, operator.found.file)} is there, and its operator creates the pods. Ask for GPUs in that resource's own spec; the product patches only Deployments, StatefulSets, Jobs and CronJobs it can read.`,
      );
    }
    const elsewhere = placements.filter(
      p =>
        p.found.object.kind === kind && p.found.object.metadata.name === name,
    );
    if (elsewhere.length > 0) {
      const namespaces = [
        ...new Set(elsewhere.map(p => p.namespace ?? '?')),
      ].sort();
      refuse(
        'metadata.namespace',
        'workload-not-found',
        `${what} is not in the repository: ${kind} "${name}" in ${elsewhere[0].found.file} is deployed to namespace ${namespaces.map(n => `"${n}"`).join(', ')}. Set metadata.namespace to where it runs.`,
      );
    }
    refuse(
      field.name,
      'workload-not-found',
      `${what} is not in the repository (every YAML file searched). Commit its manifests first, check the name and kind, or request GPUs for a new workload with spec.workload.image.`,
    );
  }

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
  const object = objects[0].object;
  const labels = getIn(object, 'metadata', 'labels') as
    Record<string, unknown> | undefined;
  if (labels?.[WELL_KNOWN_KEYS.managedBy] === MANAGED_BY) {
    const owner = getIn(
      object,
      'metadata',
      'annotations',
      `${options.labelDomain}/request`,
    );
    refuse(
      field.name,
      'workload-managed',
      `${what} was created by the GPU self-service${typeof owner === 'string' ? ` for request ${owner}` : ''}: change that request instead of patching its workload.`,
    );
  }

  const manifestNamespace = getIn(object, 'metadata', 'namespace');
  const base = {
    kind,
    name,
    namespace,
    file: objects[0].file,
    documentIndex: objects[0].documentIndex,
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

  // Several roots deploy it: the one named after the cluster, if exactly one.
  const byRoot = new Map(chains.map(p => [p.chain[0], p.chain]));
  let roots = [...byRoot.keys()].sort();
  if (roots.length > 1) {
    const named = roots.filter(r => segmentsOf(r).includes(options.cluster));
    if (named.length === 1) roots = named;
    else {
      refuse(
        field.name,
        'overlay-ambiguous',
        `${what} is deployed by ${roots.length} kustomizations (${roots.join(', ')})${named.length === 0 ? `, and none is named after cluster "${options.cluster}"` : ''}: the GPU patch must go into the one that deploys to this cluster. Name that overlay folder after the cluster.`,
      );
    }
  }
  const chain = byRoot.get(roots[0])!;
  refuseOtherCluster(chain[0], 'deployed only by');
  const patchFolder = patchFolderOf(index, chain);
  // The outermost `replicas:` entry wins, being applied last.
  const replicasFolder = scaledByKustomizeReplicas(kind)
    ? chain.find(
        folder => index.byFolder.get(folder)?.replicas[name] !== undefined,
      )
    : undefined;
  return {
    ...base,
    apply: {
      mode: 'patch',
      root: chain[0],
      patchFolder,
      kustomization: index.byFolder.get(patchFolder)!.file,
      ...(replicasFolder
        ? { replicasEntry: index.byFolder.get(replicasFolder)!.file }
        : {}),
    },
  };
}
