/**
 * The bootstrap's folders wired into what applies the cluster. When the
 * cluster's folder has a kustomization, each folder it does not reach yet
 * is added to its `resources`, one line each (`insertResource`: the team's
 * file is otherwise left byte for byte). A folder that inflates a Helm chart
 * (the bootstrap's own GPU Operator or Karpenter release, kustomize
 * `helmCharts`) is added only where the cluster's build inflates charts
 * already and no Flux object applies it: elsewhere it would make the whole
 * cluster's build fail (kustomize needs `--enable-helm`; Flux's
 * kustomize-controller never inflates charts), so the notes say how to
 * apply it instead. Every Argo CD Application or Flux Kustomization of the
 * cluster's folder (`clusterAppliers`) that still does not apply a folder
 * gets a note naming the object, its file and field, and what to change;
 * an ApplicationSet one note saying whether its git generator picks the
 * folder up, or which generator field to extend.
 */
import { posix } from 'node:path';
import { clusterScopePath, type LayoutInput } from '../../../layout/layout';
import {
  foldersBuiltBy,
  readKustomizationGraph,
  type KustomizationGraph,
} from '../../../kustomize/roots';
import { relativeTo } from '../../../kustomize/editKustomization';
import { insertResource } from '../../../kustomize/editResources';
import type { StagedTree } from '../../stagedTree';
import type { RepositoryFile } from '../helmReleases/valuesConfigMaps';
import { appliesFolder, type FolderGraph } from './appliesFolder';
import { applicationSetNotes } from './applicationSetNotes';
import {
  clusterAppliers,
  type ClusterApplier,
  type RepositoryPaths,
} from '../../../repo/clusterAppliers';

/** A folder the bootstrap writes that the cluster must apply. */
export interface GpuFolder {
  /** Repository folder of its kustomization. */
  folder: string;
  /** What it is, e.g. "the GPU folder". */
  what: string;
  /** It inflates a Helm chart (`helmCharts`). */
  helm: boolean;
}

const shown = (folder: string) => `\`${folder}/\``;

/** The graph with the bootstrap's folders, and the entries just added to the cluster's kustomization. */
function folderGraph(
  graph: KustomizationGraph,
  folders: GpuFolder[],
  clusterFolder: string,
  wired: Set<string>,
): FolderGraph {
  const ours = new Set(folders.map(f => f.folder));
  return {
    hasKustomization: folder => graph.folders.has(folder) || ours.has(folder),
    reaches: folder => {
      const reached = new Set(foldersBuiltBy(graph, folder));
      if (reached.has(clusterFolder)) wired.forEach(w => reached.add(w));
      return reached;
    },
  };
}

function applierFix(
  applier: ClusterApplier,
  missing: GpuFolder[],
  graph: FolderGraph,
): string {
  const list = missing.map(f => shown(f.folder)).join(' and ');
  const copy =
    applier.tool === 'argo'
      ? `an Argo CD Application per folder (a copy of this one with \`${applier.field}: <folder>\`)`
      : `a Flux Kustomization per folder (a copy of this one with \`spec.path: ./<folder>\`)`;
  if (graph.hasKustomization(applier.path)) {
    const file = posix.join(applier.path, 'kustomization.yaml');
    const entries = missing
      .map(f => `\`${relativeTo(file, f.folder)}\``)
      .join(', ');
    return `add ${entries} to the \`resources\` of \`${file}\`, or add ${copy} for ${list}`;
  }
  return `add ${copy} for ${list}`;
}

function applierNote(
  applier: ClusterApplier,
  missing: GpuFolder[],
  graph: FolderGraph,
): string {
  let why = `builds \`${applier.path}\`, which does not reach ${missing.map(f => shown(f.folder)).join(' or ')}`;
  if (!graph.hasKustomization(applier.path)) {
    why =
      applier.tool === 'argo'
        ? `has no kustomization, so Argo CD applies it as a directory of plain manifests${applier.recurse ? ' (recursively)' : ''} and never builds a kustomization below it`
        : `does not hold ${missing.map(f => shown(f.folder)).join(' or ')}`;
  }
  return `**To do**: ${missing.map(f => `${f.what} ${shown(f.folder)}`).join(' and ')} ${missing.length > 1 ? 'are' : 'is'} not applied by ${applier.object} in \`${applier.file}\`: its \`${applier.field}: ${applier.path}\` ${why}. To apply ${missing.length > 1 ? 'them' : 'it'}, ${applierFix(applier, missing, graph)}.`;
}

function helmNote(
  folder: GpuFolder,
  clusterFile: string | undefined,
  flux: boolean,
): string {
  const why = clusterFile
    ? ` It is not listed in \`${clusterFile}\`: ${flux ? "Flux's kustomize-controller never inflates Helm charts" : 'nothing that file builds inflates a Helm chart'}, and adding it would make the whole cluster's build fail.`
    : '';
  const how = flux
    ? 'Flux cannot build it: install the chart with a Flux HelmRelease instead (the bootstrap then adopts it and writes no release of its own) and remove the folder'
    : `apply it as a kustomize root of its own built with Helm (an Argo CD Application with \`spec.source.path: ${folder.folder}\`, and \`kustomize.buildOptions: --enable-helm\` in \`argocd-cm\`)`;
  return `**To do**: ${folder.what} ${shown(folder.folder)} inflates a Helm chart (kustomize \`helmCharts\`).${why} ${how[0].toUpperCase()}${how.slice(1)}.`;
}

/** The repository's files and folders, with the bootstrap's folders (an ApplicationSet's globs may match them). */
async function repositoryPaths(
  staged: StagedTree,
  folders: GpuFolder[],
): Promise<RepositoryPaths> {
  const files = await staged.base.listFiles('');
  const all = new Set<string>();
  for (const path of [
    ...files.map(f => posix.dirname(f)),
    ...folders.map(f => f.folder),
  ]) {
    for (let at = path; at !== '.' && !all.has(at); at = posix.dirname(at)) {
      all.add(at);
    }
  }
  return { folders: [...all].sort(), files };
}

/** Wires `folders` into the cluster's kustomization; returns the notes. */
export async function wireGpuFolders(
  staged: StagedTree,
  layout: LayoutInput,
  cluster: string,
  folders: GpuFolder[],
  files: RepositoryFile[],
): Promise<string[]> {
  const clusterFolder = clusterScopePath(layout, cluster);
  const kustomizations = await readKustomizationGraph(staged.base);
  const clusterFile = kustomizations.folders.get(clusterFolder)?.file;
  const appliers = clusterAppliers(
    files,
    clusterFolder,
    await repositoryPaths(staged, folders),
  );
  const flux = appliers.some(a => a.tool === 'flux');
  const built = foldersBuiltBy(kustomizations, clusterFolder);
  const buildsHelm = built.some(
    f => kustomizations.folders.get(f)?.inflatesHelmCharts,
  );
  const wired = new Set<string>();
  const graph = folderGraph(kustomizations, folders, clusterFolder, wired);
  const notes: string[] = [];
  const unwiredHelm: GpuFolder[] = [];
  if (clusterFile) {
    let text = (await staged.read(clusterFile)) ?? '';
    for (const folder of folders) {
      if (built.includes(folder.folder)) continue;
      if (folder.helm && (flux || !buildsHelm)) {
        unwiredHelm.push(folder);
        continue;
      }
      text =
        insertResource(
          clusterFile,
          text,
          relativeTo(clusterFile, folder.folder),
        ) ?? text;
      wired.add(folder.folder);
    }
    if (wired.size > 0) {
      await staged.write(clusterFile, text);
      notes.push(
        `Lists ${[...wired].map(f => `\`${relativeTo(clusterFile, f)}\``).join(', ')} in the \`resources\` of \`${clusterFile}\` (one line each; nothing else in that file changes), so what applies \`${clusterFolder}/\` applies ${folders
          .filter(f => wired.has(f.folder))
          .map(f => f.what)
          .join(' and ')}.`,
      );
    }
  } else {
    unwiredHelm.push(...folders.filter(f => f.helm));
  }
  for (const folder of unwiredHelm) {
    notes.push(helmNote(folder, clusterFile, flux));
  }
  // A folder one of them applies is applied (an app-of-apps has an
  // Application for the cluster's folder beside one for its apps).
  const plain = folders.filter(f => !f.helm);
  const applies = (a: ClusterApplier, f: GpuFolder) =>
    appliesFolder(a.tool, a.path, f.folder, graph);
  const unapplied = plain.filter(f => !appliers.some(a => applies(a, f)));
  notes.push(...applicationSetNotes(appliers, plain, unapplied));
  for (const applier of appliers.filter(a => !a.generator)) {
    const missing = unapplied.filter(f => !applies(applier, f));
    if (missing.length > 0) notes.push(applierNote(applier, missing, graph));
  }
  if (!clusterFile && appliers.length === 0) {
    notes.push(
      `**To do**: nothing in this repository applies \`${clusterFolder}/\` (it has no kustomization, and no Argo CD Application or Flux Kustomization names it or a folder above it): make sure what syncs cluster \`${cluster}\` applies ${plain.map(f => shown(f.folder)).join(' and ')}.`,
    );
  }
  return notes;
}
