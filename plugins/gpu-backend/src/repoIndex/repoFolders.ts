/**
 * The part of the GitOps repository the allocation index reads: the folders
 * it asks git about, and what each path in them is (gpu-node's compiled
 * layout, the same answer the whole-tree reader works from). Each cluster's
 * whole folder is read, as `readRepoState` reads it: the product's pools may
 * live anywhere in it, and so may hand-written ConfigMaps of NVIDIA configs.
 */
import { posix } from 'node:path';
import {
  compileRepoLayout,
  layoutPrefix,
  type CompiledRepoLayout,
  type LayoutInput,
  type LayoutPlace,
} from '@gpu-gitops/plugin-gpu-node';

function folderOf(prefix: string): string {
  return prefix.replace(/\/+$/, '');
}

export class RepoFolders {
  readonly layout: CompiledRepoLayout;
  /** Folders the index reads ('' = the whole repository). */
  readonly folders: string[];

  constructor(layout: LayoutInput, clusterNames: string[]) {
    this.layout = compileRepoLayout(layout, clusterNames);
    const resolved = this.layout.layout;
    const folders = new Set<string>([
      folderOf(this.layout.workloadsPrefix),
      folderOf(this.layout.requestsPrefix),
    ]);
    for (const cluster of clusterNames) {
      folders.add(folderOf(this.layout.clusterFolder(cluster)));
      folders.add(folderOf(this.layout.poolPrefix(cluster)));
      folders.add(
        folderOf(
          layoutPrefix(resolved, 'devicePluginConfig', { cluster }, 'config'),
        ),
      );
      folders.add(posix.dirname(resolved.render('migConfig', { cluster })));
      // A file, not a folder: only whether it exists matters.
      folders.add(this.clusterKustomizationPath(cluster));
    }
    // A folder inside another one the index reads adds nothing.
    const covered = (folder: string) =>
      [...folders].some(f => f !== folder && folder.startsWith(`${f}/`));
    this.folders = folders.has('')
      ? ['']
      : [...folders].filter(f => !covered(f)).sort();
  }

  /** The GPU kustomization of `cluster`, which exists once the cluster is bootstrapped. */
  clusterKustomizationPath(cluster: string): string {
    return this.layout.layout.render('clusterKustomization', { cluster });
  }

  /** The namespace a workload file's folder stands for in the layout (`apps/<namespace>/…`), if it matches. */
  workloadNamespace(path: string): string | undefined {
    return this.layout.workloadNamespace(path);
  }

  /** What `path` holds for the index, or undefined when the index ignores it. */
  classify(path: string): LayoutPlace | undefined {
    return this.layout.place(path);
  }
}
