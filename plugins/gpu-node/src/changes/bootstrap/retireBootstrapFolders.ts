/**
 * The bootstrap retires a release folder of its own that the cluster no
 * longer wants (NVIDIA's DRA driver once the profile turns DRA off, Kueue
 * once it turns Kueue off, either once the repository installs its own, the
 * GPU Operator's once a HelmChartProxy installs it on the workload cluster),
 * in the pull request that makes it stale: every file of the folder that
 * carries the bootstrap's header goes (never one it did not write: those
 * stay, and the note names them), and so does the folder's entry in each
 * kustomization that lists it (one line, the inverse of the wiring's
 * `insertResource`), so no build names a folder that is gone. An Argo CD
 * Application or Flux Kustomization that names the folder is the team's:
 * the note says to remove it.
 */
import { posix } from 'node:path';
import {
  isKustomizationFile,
  readKustomizationGraph,
} from '../../kustomize/roots';
import { relativeTo } from '../../kustomize/editKustomization';
import { deleteResource } from '../../kustomize/editResources';
import { clusterAppliers } from '../../repo/clusterAppliers';
import type { StagedTree } from '../stagedTree';
import { isBootstrapFile } from './bootstrapFile';
import type { RepositoryFile } from './helmReleases/valuesConfigMaps';

/** A folder of the bootstrap's the cluster no longer wants. */
export interface StaleFolder {
  folder: string;
  /** What it holds, e.g. "Kueue's release". */
  what: string;
  /** Why it goes, e.g. "the cluster profile no longer enables Kueue". */
  why: string;
}

const shown = (paths: string[]) => paths.map(p => `\`${p}\``).join(', ');

/** Removes the bootstrap's files of `stale`; the files of the team left there. */
async function removeOwnFiles(
  staged: StagedTree,
  stale: StaleFolder,
): Promise<{ removed: string[]; kept: string[] }> {
  const removed: string[] = [];
  const kept: string[] = [];
  for (const path of await staged.list(stale.folder)) {
    if (isBootstrapFile(await staged.read(path))) {
      await staged.remove(path);
      removed.push(path);
    } else {
      kept.push(path);
    }
  }
  return { removed, kept };
}

/** Takes `folder` out of every kustomization that lists it; their paths. */
async function unlistFolder(
  staged: StagedTree,
  folder: string,
): Promise<string[]> {
  const graph = await readKustomizationGraph(staged.base);
  const unlisted: string[] = [];
  for (const listing of graph.folders.values()) {
    if (!listing.references.includes(folder)) continue;
    const text = await staged.read(listing.file);
    const edited =
      text === undefined
        ? undefined
        : deleteResource(text, relativeTo(listing.file, folder));
    if (edited === undefined) continue;
    await staged.write(listing.file, edited);
    unlisted.push(listing.file);
  }
  return unlisted;
}

async function retireFolder(
  staged: StagedTree,
  stale: StaleFolder,
  clusterFolder: string,
  files: RepositoryFile[],
): Promise<string[]> {
  const { removed, kept } = await removeOwnFiles(staged, stale);
  if (removed.length === 0) return [];
  // The folder is gone as a kustomization once its own file is.
  const gone = !(await staged.list(stale.folder)).some(
    path => posix.dirname(path) === stale.folder && isKustomizationFile(path),
  );
  const unlisted = gone ? await unlistFolder(staged, stale.folder) : [];
  const appliers = clusterAppliers(files, clusterFolder).filter(
    a => a.path === stale.folder,
  );
  return [
    [
      `Removes ${stale.what} in \`${stale.folder}/\` (${shown(removed)}), as ${stale.why}`,
      unlisted.length > 0
        ? `, and its entry in ${shown(unlisted)} (one line each; nothing else there changes)`
        : '',
      '.',
      kept.length > 0
        ? ` The bootstrap did not write ${shown(kept)}: left as they are.`
        : '',
    ].join(''),
    ...appliers.map(
      a =>
        `**To do**: ${a.object} in \`${a.file}\` applies \`${stale.folder}/\` (\`${a.field}\`), which this change removes: remove that object.`,
    ),
  ];
}

/** Retires every folder of `stale`; the notes. */
export async function retireBootstrapFolders(
  staged: StagedTree,
  stale: readonly StaleFolder[],
  clusterFolder: string,
  /** The cluster's files (`clusterReleaseFiles`), read once per bootstrap. */
  files: RepositoryFile[],
): Promise<string[]> {
  const notes: string[] = [];
  for (const folder of stale) {
    notes.push(...(await retireFolder(staged, folder, clusterFolder, files)));
  }
  return notes;
}
