/**
 * The GPU workloads of `readRepoState` with the replicas their workload
 * folder deploys them with: the allocation index's reading of the same
 * folder (gpu-node workloads/workloadObjects.ts, then withDeployedReplicas),
 * so the actions count, for the owner's quota, the replicas the preview, the
 * card and the change's form count.
 */
import type {
  RepositoryWorkload,
  WorkloadState,
} from '@gpu-gitops/plugin-gpu-common';
import type { CompiledRepoLayout } from '../layout/compileRepoLayout';
import { withDeployedReplicas } from '../workloads/deployedReplicas';
import {
  readWorkloadObjects,
  type ParsedFiles,
} from '../workloads/workloadObjects';
import { runBounded } from '../runBounded';
import { mapInTurns } from './eventLoopTurns';
import { sharedParseCache, type ParseCache } from './parseCache';
import { readFiles } from './readFiles';
import type { RepoTree } from './tree';
import {
  keepFolderObjects,
  keptFolderObjects,
  type FolderContent,
} from './workloadFolderObjects';

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

/** What one pass of the replicas reader shares: the tree, the layout, the parse cache's documents and folders. */
interface FolderRead {
  tree: RepoTree;
  layout: CompiledRepoLayout;
  parsed?: ParsedFiles;
  cache: ParseCache;
  ids: ReadonlyMap<string, string>;
}

/**
 * The folder's files with their blob ids and layout namespaces; undefined
 * when one has no id (changed since the commit, or a tree that cannot
 * tell), so the folder is read.
 */
function folderContent(
  { layout, ids }: FolderRead,
  paths: readonly string[],
): FolderContent | undefined {
  const content: [string, string, string?][] = [];
  for (const path of paths) {
    const id = ids.get(path);
    if (id === undefined) return undefined;
    content.push([path, id, layout.workloadNamespace(path)]);
  }
  return content;
}

/**
 * The folder's workload objects, as the index reads a workload folder:
 * kept from an earlier pass when none of its files changed
 * (`workloadFolderObjects.ts`), else from the text of its YAML files.
 */
async function folderObjects(
  read: FolderRead,
  folder: string,
): Promise<readonly RepositoryWorkload[]> {
  const { tree, layout, parsed, cache } = read;
  const paths = (await tree.listFiles(folder)).filter(
    path => workloadFolderOf(layout, path) === folder,
  );
  const content = folderContent(read, paths);
  const kept = content && keptFolderObjects(cache, content);
  if (kept) return kept;
  const texts = await readFiles(tree, paths);
  const objects = await readWorkloadObjects(
    path => layout.workloadNamespace(path),
    new Map(
      paths.flatMap((path, i) =>
        texts[i] === undefined ? [] : [[path, texts[i]!] as const],
      ),
    ),
    parsed,
  );
  if (content) keepFolderObjects(cache, content, objects);
  return objects;
}

/**
 * `parsed`: the documents the state reader took from the parse cache, by
 * path (files that parsed whole): each workload file is parsed once in a
 * pass, and not at all in a re-render whose cache holds it (10k workload
 * files of a scale cluster were parsed again on every re-render). `cache`:
 * that parse cache, beside which each folder's objects are kept.
 */
export async function withReplicasAsDeployed(
  tree: RepoTree,
  layout: CompiledRepoLayout,
  workloads: WorkloadState[],
  parsed?: ParsedFiles,
  cache: ParseCache = sharedParseCache,
): Promise<WorkloadState[]> {
  const read: FolderRead = {
    tree,
    layout,
    parsed,
    cache,
    ids: (await tree.blobIds?.()) ?? new Map(),
  };
  // Each workload's folder found once, in turns: 89k on a scale cluster.
  const placed = await mapInTurns(workloads, workload => ({
    workload,
    folder: workloadFolderOf(layout, workload.path),
  }));
  // A few folders at a time: a scale cluster has 10k workload folders, and
  // reading them all at once ran out of file descriptors (EMFILE) once the
  // parse cache had spared the state reader reading their files.
  const folders = [...new Set(placed.flatMap(p => p.folder ?? []))];
  const objects = await runBounded(
    folders.map(folder => () => folderObjects(read, folder)),
    FOLDERS_IN_FLIGHT,
  );
  const byFolder = new Map(folders.map((folder, i) => [folder, objects[i]]));
  return mapInTurns(placed, ({ workload, folder }) =>
    folder ? withDeployedReplicas(workload, byFolder.get(folder)!) : workload,
  );
}
