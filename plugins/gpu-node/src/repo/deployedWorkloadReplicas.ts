/**
 * The GPU workloads of `readRepoState` with the replicas their workload
 * folder deploys them with: the allocation index's reading of the same
 * folder (gpu-node workloads/workloadObjects.ts, then withDeployedReplicas),
 * so the actions count, for the owner's quota, the replicas the preview, the
 * card and the change's form count.
 */
import type { WorkloadState } from '@gpu-gitops/plugin-gpu-common';
import type { CompiledRepoLayout } from '../layout/compileRepoLayout';
import { withDeployedReplicas } from '../workloads/deployedReplicas';
import {
  readWorkloadObjects,
  type ParsedFiles,
} from '../workloads/workloadObjects';
import { runBounded } from '../kustomize/buildsInFlight';
import { readFiles } from './readFiles';
import type { RepoTree } from './tree';

/** Workload folders read at once (each reads its files a few dozen at a time: `readFiles`): at most about a thousand files open. */
const FOLDERS_IN_FLIGHT = 32;

/** The workload folder of a file, as the index groups its files. */
function workloadFolderOf(
  layout: CompiledRepoLayout,
  path: string,
): string | undefined {
  const place = layout.place(path);
  return place?.entry === 'workloadDir' ? place.folder : undefined;
}

/** The folder's YAML files (path -> text), as the index reads a workload folder. */
async function folderFiles(
  tree: RepoTree,
  layout: CompiledRepoLayout,
  folder: string,
): Promise<Map<string, string>> {
  const paths = (await tree.listFiles(folder)).filter(
    path => workloadFolderOf(layout, path) === folder,
  );
  const texts = await readFiles(tree, paths);
  return new Map(
    paths.flatMap((path, i) =>
      texts[i] === undefined ? [] : [[path, texts[i]!] as const],
    ),
  );
}

/**
 * `parsed`: the documents the state reader took from the parse cache, by
 * path (files that parsed whole): each workload file is parsed once in a
 * pass, and not at all in a re-render whose cache holds it (10k workload
 * files of a scale cluster were parsed again on every re-render).
 */
export async function withReplicasAsDeployed(
  tree: RepoTree,
  layout: CompiledRepoLayout,
  workloads: WorkloadState[],
  parsed?: ParsedFiles,
): Promise<WorkloadState[]> {
  // A few folders at a time: a scale cluster has 10k workload folders, and
  // reading them all at once ran out of file descriptors (EMFILE) once the
  // parse cache had spared the state reader reading their files.
  const folders = [
    ...new Set(workloads.flatMap(w => workloadFolderOf(layout, w.path) ?? [])),
  ];
  const objects = await runBounded(
    folders.map(
      folder => async () =>
        readWorkloadObjects(
          path => layout.workloadNamespace(path),
          await folderFiles(tree, layout, folder),
          parsed,
        ),
    ),
    FOLDERS_IN_FLIGHT,
  );
  const byFolder = new Map(folders.map((folder, i) => [folder, objects[i]]));
  return workloads.map(workload => {
    const folder = workloadFolderOf(layout, workload.path);
    return folder
      ? withDeployedReplicas(workload, byFolder.get(folder)!)
      : workload;
  });
}
