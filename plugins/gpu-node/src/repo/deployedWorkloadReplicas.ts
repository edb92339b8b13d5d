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
import { readFiles } from './readFiles';
import type { RepoTree } from './tree';

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
  const objects = new Map<string, ReturnType<typeof readWorkloadObjects>>();
  const objectsOf = (folder: string) => {
    if (!objects.has(folder)) {
      objects.set(
        folder,
        folderFiles(tree, layout, folder).then(files =>
          readWorkloadObjects(
            path => layout.workloadNamespace(path),
            files,
            parsed,
          ),
        ),
      );
    }
    return objects.get(folder)!;
  };
  return Promise.all(
    workloads.map(async workload => {
      const folder = workloadFolderOf(layout, workload.path);
      return folder
        ? withDeployedReplicas(workload, await objectsOf(folder))
        : workload;
    }),
  );
}
