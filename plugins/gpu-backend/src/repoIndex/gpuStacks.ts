/**
 * What the repository runs on each cluster's GPU nodes (`RepoState.gpuStack`),
 * read from the indexed files with gpu-node's reader over the files a
 * request's checkout would give it (`isClusterReleaseFile`: the cluster's
 * folder and the indexed files outside every cluster's folder), so the form
 * and `POST /plan` refuse what the actions refuse. The read is redone only
 * when a file that can shape it changed (`mayShapeGpuStack`, or a file the
 * last read opened, such as a values file a release names).
 */
import type {
  ClusterGpuStack,
  ClusterProfile,
} from '@gpu-gitops/plugin-gpu-common';
import {
  isClusterReleaseFile,
  mayShapeGpuStack,
  readGpuStack,
  type LayoutInput,
  type RepoTree,
} from '@gpu-gitops/plugin-gpu-node';

/** Reads blob texts by repository path (undefined: not indexed). */
export type ReadTexts = (paths: string[]) => Promise<Map<string, string>>;

/** The indexed files as a read-only tree that remembers what it was asked for. */
class IndexedFilesTree implements RepoTree {
  readonly opened = new Set<string>();

  constructor(
    private readonly texts: Map<string, string>,
    private readonly paths: string[],
    private readonly readTexts: ReadTexts,
  ) {}

  async readFile(path: string): Promise<string | undefined> {
    this.opened.add(path);
    if (!this.texts.has(path)) {
      const [text] = (await this.readTexts([path])).values();
      if (text !== undefined) this.texts.set(path, text);
    }
    return this.texts.get(path);
  }

  async listFiles(prefix = ''): Promise<string[]> {
    const folder = prefix.endsWith('/') || !prefix ? prefix : `${prefix}/`;
    return this.paths.filter(p => p === prefix || p.startsWith(folder));
  }

  async writeFile(): Promise<void> {
    throw new Error('the allocation index never writes the repository');
  }

  async deleteFile(): Promise<void> {
    throw new Error('the allocation index never writes the repository');
  }
}

export interface GpuStacks {
  byCluster: Map<string, ClusterGpuStack>;
  /** The files whose change can change a stack. */
  inputs: Set<string>;
}

/** Every cluster's stack from the indexed `paths` (sorted). */
export async function readGpuStacks(
  layout: LayoutInput,
  profiles: ClusterProfile[],
  paths: string[],
  readTexts: ReadTexts,
): Promise<GpuStacks> {
  const releasePaths = paths.filter(path =>
    profiles.some(p => isClusterReleaseFile(layout, p.name, path)),
  );
  const texts = await readTexts(releasePaths);
  const tree = new IndexedFilesTree(new Map(texts), paths, readTexts);
  const byCluster = new Map<string, ClusterGpuStack>();
  for (const profile of profiles) {
    const files = releasePaths
      .filter(path => isClusterReleaseFile(layout, profile.name, path))
      .map(path => ({ path, text: texts.get(path) ?? '' }));
    byCluster.set(profile.name, await readGpuStack(tree, profile, files));
  }
  const inputs = new Set(tree.opened);
  for (const [path, text] of texts) {
    if (mayShapeGpuStack(path, text)) inputs.add(path);
  }
  return { byCluster, inputs };
}
