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
import type { WorkloadState } from '@gpu-gitops/plugin-gpu-common';
import { requestPath, type LayoutInput } from '../layout/layout';
import { readKustomizations } from '../workloads/kustomizations';
import { deployingClusters } from './deployingClusters';
import { readGitOpsAppliers } from './gitOpsAppliers';
import type { ParseCache } from './parseCache';
import { filterInTurns, mapInTurns, someInTurns } from './eventLoopTurns';
import { parseFiles } from './parseFiles';
import type { RepoTree } from './tree';
import { getIn, type SkippedFile } from './yamlObjects';

/**
 * The cluster each stored request names, where its record says: read a few
 * dozen at a time and parsed once across passes (`parseFiles.ts`). All at
 * once, the 10k records of a scale repository ran out of file handles
 * (EMFILE) and failed the updater's re-render.
 */
async function recordClusters(
  tree: RepoTree,
  layout: LayoutInput,
  requests: readonly string[],
  cache: ParseCache | undefined,
): Promise<(string | undefined)[]> {
  // A scale cluster's 10k records: each path a render of the layout, in turns.
  const paths = await mapInTurns(requests, request => {
    const [namespace, name] = request.split('/');
    return namespace && name ? requestPath(layout, namespace, name) : '';
  });
  // An unreadable record tells nothing (the workload stays): not reported here.
  const unreported: SkippedFile[] = [];
  const recorded = paths.filter(Boolean);
  const parsed = await parseFiles(tree, recorded, unreported, cache);
  const broken = new Set(unreported.map(file => file.path));
  const documentsOf = new Map(recorded.map((path, i) => [path, parsed[i]]));
  return paths.map(path => {
    const documents = documentsOf.get(path);
    if (!documents || documents.length !== 1 || broken.has(path)) {
      return undefined;
    }
    const cluster = getIn(documents[0].value, 'spec', 'cluster');
    return typeof cluster === 'string' ? cluster : undefined;
  });
}

/** The workloads among `workloads` that run on `cluster`. */
export async function workloadsOfCluster(
  tree: RepoTree,
  layout: LayoutInput,
  cluster: string,
  workloads: readonly WorkloadState[],
  cache?: ParseCache,
): Promise<WorkloadState[]> {
  const requests = [
    ...new Set(workloads.flatMap(w => (w.request ? [w.request] : []))),
  ];
  const named = await recordClusters(tree, layout, requests, cache);
  const recordedCluster = new Map(requests.map((r, i) => [r, named[i]]));
  const unrecorded = workloads.filter(
    w => !w.request || recordedCluster.get(w.request) === undefined,
  );
  // The folders are read only when a workload's record does not tell.
  const index =
    unrecorded.length > 0 ? await readKustomizations(tree) : undefined;
  // The Argo CD / Flux objects are read only when a kustomization chain
  // does not tell. Both walks take turns of the event loop: each asks the
  // chains of every unrecorded workload (100k on the scale bench).
  const appliers =
    index &&
    (await someInTurns(
      unrecorded,
      w => !deployingClusters(index, layout, w.path),
    ))
      ? await readGitOpsAppliers(tree)
      : [];
  return filterInTurns(workloads, w => {
    const recorded = w.request ? recordedCluster.get(w.request) : undefined;
    if (recorded !== undefined) return recorded === cluster;
    const deploying =
      index && deployingClusters(index, layout, w.path, appliers);
    return !deploying || deploying.has(cluster);
  });
}
