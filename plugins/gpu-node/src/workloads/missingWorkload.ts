import {
  WORKLOAD_KINDS,
  type WorkloadKind,
} from '@gpu-gitops/plugin-gpu-common';
import type { RepoTree } from '../repo/tree';
import { getIn, type PlainObject } from '../repo/yamlObjects';
import {
  existingWorkloadField as field,
  refuse,
} from './existingWorkloadRefusal';
import { chartFolderRendering } from './helmChartFolders';
import type { KustomizationIndex } from './kustomizations';
import type { Placement } from './locate';

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

/**
 * Refuses a request whose existing workload the repository does not hold as
 * a manifest of that kind in that namespace, saying why, the most useful
 * reason first: rendered by Helm, written as another kind, a kind GPU
 * requests do not patch, an operator's resource, deployed to another
 * namespace, or simply not there.
 */
export async function refuseMissingWorkload(
  tree: RepoTree,
  workload: { kind: WorkloadKind; name: string; namespace: string },
  placements: Placement[],
  index: KustomizationIndex,
): Promise<never> {
  const { kind, name, namespace } = workload;
  const what = `${kind} "${name}" in namespace "${namespace}"`;
  const inNamespace = placements.filter(
    p => p.namespace === undefined || p.namespace === namespace,
  );
  // Say why, most useful reason first.
  await refuseIfHelmRendered(tree, workload, inNamespace, index);
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
    p => p.found.object.kind === kind && p.found.object.metadata.name === name,
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

/** A workload Helm renders (a HelmRelease, an Argo CD chart, kustomize `helmCharts`, a chart folder) has no manifest to patch. */
async function refuseIfHelmRendered(
  tree: RepoTree,
  workload: { kind: WorkloadKind; name: string; namespace: string },
  inNamespace: Placement[],
  index: KustomizationIndex,
): Promise<void> {
  const { kind, name, namespace } = workload;
  const what = `${kind} "${name}" in namespace "${namespace}"`;
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
}
