/**
 * What the repository runs on each cluster's GPU nodes (`RepoState.gpuStack`),
 * read from the indexed files with gpu-node's reader over the files a
 * request's checkout gives it (`isClusterReleaseFile`: the cluster's folder
 * and the indexed files outside every cluster's folder), so the form and
 * `POST /plan` refuse what the actions refuse. Kept incremental like the
 * rest of the index: each changed file's role (`gpuStackFileRole`) is noted,
 * the readers get only the files that can matter, and the stacks are read
 * again only when such a file, or one the last read opened (a values file a
 * release names), changed.
 */
import {
  compareStrings,
  type ClusterGpuStack,
  type ClusterProfile,
} from '@gpu-gitops/plugin-gpu-common';
import {
  eventLoopTurns,
  gpuStackFileRole,
  isClusterReleaseFile,
  readGpuStack,
  releasesTakeValuesFrom,
  type LayoutInput,
  type RepoTree,
} from '@gpu-gitops/plugin-gpu-node';

/** Reads the texts of indexed files by repository path (absent: not indexed). */
export type ReadTexts = (paths: string[]) => Promise<Map<string, string>>;

/** What the stacks were read from, as the store keeps (and saves) it. */
export interface GpuStackFiles {
  /** Files that may declare a release or a node class. */
  releases: Set<string>;
  /** ConfigMaps (or generators) a Flux release's `valuesFrom` may name. */
  valuesSources: Set<string>;
  /** Files the last read opened through its tree (values files). */
  opened: Set<string>;
  /** A release takes values from ConfigMaps: `valuesSources` count. */
  valuesFromInUse: boolean;
}

export const noGpuStackFiles = (): GpuStackFiles => ({
  releases: new Set(),
  valuesSources: new Set(),
  opened: new Set(),
  valuesFromInUse: false,
});

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

/** Whether `path` is one of the files some cluster's stack is read from. */
export function isStackFile(
  layout: LayoutInput,
  profiles: ClusterProfile[],
  path: string,
): boolean {
  return profiles.some(p => isClusterReleaseFile(layout, p.name, path));
}

/**
 * Those of `paths` some cluster's stack is read from, sorted. A first index
 * asks about every indexed path (130k on the scale bench, each against
 * every cluster's folders): `yieldTurn` gives the event loop its turns
 * (gpu-node `eventLoopTurns`) — in one go it held it for a quarter second.
 */
export async function stackFilesAmong(
  layout: LayoutInput,
  profiles: ClusterProfile[],
  paths: Iterable<string>,
  yieldTurn: () => Promise<void> = eventLoopTurns(),
): Promise<string[]> {
  const found: string[] = [];
  for (const path of paths) {
    await yieldTurn();
    if (isStackFile(layout, profiles, path)) found.push(path);
  }
  return found.sort(compareStrings);
}

/**
 * Notes the role of each changed stack file (`texts`: their texts now;
 * `gone`: deleted); true when one of them can change a stack.
 */
export function noteChangedFiles(
  files: GpuStackFiles,
  texts: Map<string, string>,
  gone: string[],
): boolean {
  let matters = false;
  const wasInput = (path: string) =>
    files.releases.has(path) ||
    files.opened.has(path) ||
    (files.valuesFromInUse && files.valuesSources.has(path));
  for (const path of gone) {
    matters ||= wasInput(path);
    files.releases.delete(path);
    files.valuesSources.delete(path);
  }
  for (const [path, text] of texts) {
    matters ||= wasInput(path);
    files.releases.delete(path);
    files.valuesSources.delete(path);
    const role = gpuStackFileRole(text);
    if (role === 'release') files.releases.add(path);
    if (role === 'valuesSource') files.valuesSources.add(path);
    matters ||= wasInput(path);
  }
  return matters;
}

/** Every cluster's stack, from the files `files` names among the indexed `paths`. */
export async function readGpuStacks(
  layout: LayoutInput,
  profiles: ClusterProfile[],
  paths: string[],
  files: GpuStackFiles,
  readTexts: ReadTexts,
): Promise<Map<string, ClusterGpuStack>> {
  const texts = await readTexts([...files.releases].sort());
  files.valuesFromInUse = releasesTakeValuesFrom(texts.values());
  if (files.valuesFromInUse) {
    for (const [p, t] of await readTexts([...files.valuesSources].sort())) {
      texts.set(p, t);
    }
  }
  const tree = new IndexedFilesTree(new Map(texts), paths, readTexts);
  const byCluster = new Map<string, ClusterGpuStack>();
  for (const profile of profiles) {
    const clusterFiles = [...texts]
      .filter(([path]) => isClusterReleaseFile(layout, profile.name, path))
      .sort(([a], [b]) => compareStrings(a, b))
      .map(([path, text]) => ({ path, text }));
    byCluster.set(
      profile.name,
      await readGpuStack(tree, profile, clusterFiles),
    );
  }
  files.opened = tree.opened;
  return byCluster;
}
