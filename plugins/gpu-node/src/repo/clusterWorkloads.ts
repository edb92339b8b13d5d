/**
 * Which of the repository's GPU workloads run on one cluster. The workload
 * folders are shared by every cluster, but a workload the GPU self-service
 * gave GPUs to carries its request's id (`<labelDomain>/request` on its pod
 * template), and the stored request names the cluster it was planned on
 * (`spec.cluster`, `requests/<namespace>/<name>.yaml`, in every checkout):
 * its pods run there, on that cluster's pools, so this cluster's readers
 * neither count it nor warn that it lands on none of their pools. A workload
 * whose record names no cluster, or that no request wrote, runs where the
 * cluster folders' kustomizations deploy it, or the Argo CD / Flux objects
 * applying its folder send it (`deployingClusters.ts`); when they do not
 * tell, it stays.
 */
import { parse } from 'yaml';
import type { WorkloadState } from '@gpu-gitops/plugin-gpu-common';
import { requestPath, type LayoutInput } from '../layout/layout';
import { readKustomizations } from '../workloads/kustomizations';
import { deployingClusters } from './deployingClusters';
import { readGitOpsAppliers } from './gitOpsAppliers';
import type { RepoTree } from './tree';
import { getIn } from './yamlObjects';

/** The cluster a stored request names, if its record says. */
async function recordCluster(
  tree: RepoTree,
  layout: LayoutInput,
  request: string,
): Promise<string | undefined> {
  const [namespace, name] = request.split('/');
  if (!namespace || !name) return undefined;
  const text = await tree.readFile(requestPath(layout, namespace, name));
  if (text === undefined) return undefined;
  try {
    const cluster = getIn(parse(text), 'spec', 'cluster');
    return typeof cluster === 'string' ? cluster : undefined;
  } catch {
    // An unreadable record tells nothing: the workload stays.
    return undefined;
  }
}

/** The workloads among `workloads` that run on `cluster`. */
export async function workloadsOfCluster(
  tree: RepoTree,
  layout: LayoutInput,
  cluster: string,
  workloads: readonly WorkloadState[],
): Promise<WorkloadState[]> {
  const requests = [
    ...new Set(workloads.flatMap(w => (w.request ? [w.request] : []))),
  ];
  const named = await Promise.all(
    requests.map(request => recordCluster(tree, layout, request)),
  );
  const recordedCluster = new Map(requests.map((r, i) => [r, named[i]]));
  const unrecorded = workloads.filter(
    w => !w.request || recordedCluster.get(w.request) === undefined,
  );
  // The folders are read only when a workload's record does not tell.
  const index =
    unrecorded.length > 0 ? await readKustomizations(tree) : undefined;
  // The Argo CD / Flux objects are read only when a kustomization chain does not tell.
  const appliers =
    index && unrecorded.some(w => !deployingClusters(index, layout, w.path))
      ? await readGitOpsAppliers(tree)
      : [];
  return workloads.filter(w => {
    const recorded = w.request ? recordedCluster.get(w.request) : undefined;
    if (recorded !== undefined) return recorded === cluster;
    const deploying =
      index && deployingClusters(index, layout, w.path, appliers);
    return !deploying || deploying.has(cluster);
  });
}
