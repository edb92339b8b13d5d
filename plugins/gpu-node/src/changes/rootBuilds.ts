/**
 * Every kustomization root a change touches, built with the real kustomize
 * before and after the change: what `verifyChange` (a request) and
 * `verifyRelease` (a release) judge. Only the touched roots' folders are
 * copied to a scratch folder, with the change written over them.
 */
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { BuiltObject } from '../kustomize/build';
import {
  buildKustomizationRoot,
  type BuildRootOptions,
} from '../kustomize/buildRoot';
import { KUSTOMIZE_BUILDS_IN_FLIGHT } from '../kustomize/buildsInFlight';
import { runBounded } from '../runBounded';
import {
  buildPlainRootInChunks,
  CHUNKED_MIN_RESOURCES,
  plainRoot,
  type PlainRoot,
  type RootFiles,
} from '../kustomize/chunkedBuild';
import { isKustomizeBuildError } from '../kustomize/errors';
import {
  foldersBuiltBy,
  readKustomizationGraph,
  type KustomizationGraph,
} from '../kustomize/roots';
import { normaliseRepoPath } from '../layout/layout';
import { FsRepoTree, type RepoTree } from '../repo/tree';
import { StagedTree, writeChangeSet } from './stagedTree';
import type { ChangeSet } from './types';

/** Runs one named step (for progress logs and timings). */
export type StageRunner = <T>(
  name: string,
  step: () => Promise<T>,
) => Promise<T>;

/** One touched root: its objects before and after, or why it did not build. */
export interface RootBuild {
  root: string;
  /** Objects before (none when the change creates the root), or the base's build error. */
  before: { objects?: BuiltObject[]; error?: string };
  after: { objects?: BuiltObject[]; error?: string };
  /** The kustomization files the root builds after the change (what its generators read). */
  kustomizationsAfter: string[];
}

/** `group|kind|namespace|name` of a built object. */
export function builtObjectId(o: BuiltObject): string {
  const group = String(o.apiVersion ?? '').includes('/')
    ? String(o.apiVersion).split('/')[0]
    : '';
  return `${group}|${o.kind}|${String(o.metadata.namespace ?? '')}|${o.metadata.name}`;
}

function contains(folder: string, file: string): boolean {
  return folder === '.' || file === folder || file.startsWith(`${folder}/`);
}

/** Roots of either graph that build a folder holding one of `files`. */
function affectedRoots(
  graphs: KustomizationGraph[],
  files: string[],
): string[] {
  const roots = new Set<string>();
  for (const graph of graphs) {
    for (const root of graph.roots) {
      const touched = foldersBuiltBy(graph, root).some(folder =>
        files.some(file => contains(folder, path.posix.dirname(file))),
      );
      if (touched) roots.add(root);
    }
  }
  return [...roots].sort();
}

/**
 * The root's objects: a big root that only lists resource files in chunks
 * (`chunkedBuild.ts`; the verification compares objects by id; its files
 * known by `blobIds` where git vouches for them), any other whole.
 */
async function builtObjects(
  dir: string,
  graph: KustomizationGraph,
  root: string,
  options?: BuildRootOptions,
  blobIds?: ReadonlyMap<string, string>,
): Promise<BuiltObject[]> {
  const plain = await plainRoot(
    root === '.' ? dir : path.join(dir, ...root.split('/')),
  );
  return plain && plain.resources.length >= CHUNKED_MIN_RESOURCES
    ? buildPlainRootInChunks(dir, root, plain, options, { blobIds })
    : (await buildKustomizationRoot(dir, graph, root, options)).objects;
}

type Built = { objects?: BuiltObject[]; error?: string };

/** The objects of a root of `graph`, or its build error as the verification reports it. */
async function judged(
  graph: KustomizationGraph,
  root: string,
  objects: () => Promise<BuiltObject[]>,
): Promise<Built> {
  if (!graph.folders.has(root)) return { objects: [] };
  try {
    return { objects: await objects() };
  } catch (error) {
    // A kustomize we stopped did not judge the tree: the verification did not happen.
    if (isKustomizeBuildError(error) && !error.stopped) {
      return { error: error.detail };
    }
    throw error;
  }
}

const build = (
  dir: string,
  graph: KustomizationGraph,
  root: string,
  options?: BuildRootOptions,
  blobIds?: ReadonlyMap<string, string>,
): Promise<Built> =>
  judged(graph, root, () => builtObjects(dir, graph, root, options, blobIds));

/**
 * Starts the base's builds of the roots that build any of `files`, so that
 * kustomize runs while the pass plans and renders; `buildTouchedRoots` then
 * takes each one from the build under way or remembered
 * (`buildKustomizationRoot`). Never throws: a root that does not build is
 * the verification's to report. The caller awaits it before the checkout
 * may change (a build keyed by the base must read the base).
 */
export async function prebuildBaseRoots(
  dir: string,
  base: RepoTree,
  files: string[],
  kustomize?: BuildRootOptions,
): Promise<void> {
  try {
    const [graph, blobIds] = await Promise.all([
      readKustomizationGraph(base),
      base.blobIds?.(),
    ]);
    await Promise.all(
      affectedRoots([graph], files).map(root =>
        build(dir, graph, root, kustomize, blobIds),
      ),
    );
  } catch {
    // Built again, and explained, by the verification.
  }
}

/**
 * The blob ids of the checkout's files as the scratch copy holds them after
 * the change: the files it writes or deletes are no longer what git lists.
 */
function idsAfterChange(
  blobIds: ReadonlyMap<string, string> | undefined,
  changeSet: ChangeSet,
): ReadonlyMap<string, string> | undefined {
  if (!blobIds) return undefined;
  const after = new Map(blobIds);
  for (const change of changeSet.changes) {
    after.delete(normaliseRepoPath(change.path));
  }
  return after;
}

/**
 * The files of `root` after the change: the change's own in `scratch`
 * (where it is written), the others where the checkout `dir` holds them.
 */
function filesAfterChange(
  dir: string,
  scratch: string,
  root: string,
  changeSet: ChangeSet,
): RootFiles {
  const changed = new Set(
    changeSet.changes.map(c => normaliseRepoPath(c.path)),
  );
  return entry => {
    const file = path.posix.join(root, entry);
    const from = changed.has(file) ? scratch : dir;
    return path.join(from, ...file.split('/'));
  };
}

/** Copies `folder` of the checkout `dir` (without `.git`) to the same place in `scratch`. */
async function copyFolder(
  dir: string,
  scratch: string,
  folder: string,
): Promise<void> {
  const from = folder === '.' ? dir : path.join(dir, ...folder.split('/'));
  const to =
    folder === '.' ? scratch : path.join(scratch, ...folder.split('/'));
  await fs
    .cp(from, to, {
      recursive: true,
      force: true,
      filter: source => path.basename(source) !== '.git',
    })
    .catch(error => {
      // A folder the change creates is not in the base yet.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    });
}

/** A root built in chunks after the change: its plain kustomization, and where its files are. */
interface ChunkedAfter {
  plain: PlainRoot;
  fileOf: RootFiles;
}

/**
 * The tree after the change in `scratch`, as the roots' builds after read
 * it: the change's own files, and each root's folders copied from the
 * checkout with the change written over them. Copied one root after another
 * (roots share folders). A root built in chunks after the change
 * (`chunkedBuild.ts`) is not copied: it reads its unchanged files where the
 * checkout holds them (the scale bench's 2,000-file GPU root took 5 to 8 s
 * of `fs.cp` on a loaded two-core machine); those roots are returned with
 * where their files are, the others as built whole (asked once: the
 * build after takes the answer).
 */
async function materializeAfter(
  dir: string,
  scratch: string,
  graphAfter: KustomizationGraph,
  roots: string[],
  changeSet: ChangeSet,
): Promise<Map<string, ChunkedAfter | 'whole'>> {
  const after = new FsRepoTree(scratch);
  await writeChangeSet(after, changeSet);
  const builtAs = new Map<string, ChunkedAfter | 'whole'>();
  const copied = new Set<string>();
  for (const root of roots) {
    const fileOf = filesAfterChange(dir, scratch, root, changeSet);
    const plain = await plainRoot(fileOf);
    if (plain && plain.resources.length >= CHUNKED_MIN_RESOURCES) {
      builtAs.set(root, { plain, fileOf });
      continue;
    }
    builtAs.set(root, 'whole');
    for (const folder of foldersBuiltBy(graphAfter, root)) {
      if ([...copied].some(c => contains(c, folder))) continue;
      copied.add(folder);
      await copyFolder(dir, scratch, folder);
      await writeChangeSet(after, {
        changes: changeSet.changes.filter(c => contains(folder, c.path)),
        empty: false,
      });
    }
  }
  return builtAs;
}

/**
 * Builds each root the change touches before (the checkout `dir`) and after
 * (a scratch copy of the root's folders with the change applied), side by
 * side (bounded: `KUSTOMIZE_BUILDS_IN_FLIGHT`). A root the change removes
 * builds to nothing after. `base` reads the checkout `dir` (the pass's
 * own reader, whose files were read already). `alsoBuilding` names files
 * the change leaves as they are whose roots are built too (the pool a
 * patched workload's pods must land on, in a root the change does not touch).
 */
export async function buildTouchedRoots(
  dir: string,
  changeSet: ChangeSet,
  kustomize?: BuildRootOptions,
  stage: StageRunner = (_name, step) => step(),
  base: RepoTree = new FsRepoTree(dir),
  alsoBuilding: readonly string[] = [],
): Promise<RootBuild[]> {
  if (changeSet.changes.length === 0) return [];
  const scratch = await fs.mkdtemp(
    path.join(os.tmpdir(), 'gpu-gitops-verify-'),
  );
  try {
    const staged = new StagedTree(base);
    for (const change of changeSet.changes) {
      if (change.action === 'delete') await staged.remove(change.path);
      else await staged.write(change.path, change.content);
    }
    const [graphBefore, graphAfter, blobIds] = await stage(
      'kustomization graph',
      () =>
        Promise.all([
          readKustomizationGraph(base),
          readKustomizationGraph({
            readFile: p => staged.read(p),
            listFiles: p => staged.list(p ?? ''),
            writeFile: () => Promise.reject(new Error('read only')),
            deleteFile: () => Promise.reject(new Error('read only')),
          }),
          base.blobIds?.(),
        ]),
    );
    const files = [...changeSet.changes.map(c => c.path), ...alsoBuilding];
    const roots = affectedRoots([graphBefore, graphAfter], files);
    const builtAfterAs = await materializeAfter(
      dir,
      scratch,
      graphAfter,
      roots,
      changeSet,
    );
    const blobIdsAfter = idsAfterChange(blobIds, changeSet);
    const buildAfter = (root: string) =>
      judged(graphAfter, root, async () => {
        const chunked = builtAfterAs.get(root);
        if (chunked === undefined || chunked === 'whole') {
          return (
            await buildKustomizationRoot(scratch, graphAfter, root, kustomize)
          ).objects;
        }
        return buildPlainRootInChunks(scratch, root, chunked.plain, kustomize, {
          blobIds: blobIdsAfter,
          fileOf: chunked.fileOf,
        });
      });
    const timed = (side: 'before' | 'after', root: string) =>
      stage(`kustomize build ${root} (${side})`, () =>
        side === 'before'
          ? build(dir, graphBefore, root, kustomize, blobIds)
          : buildAfter(root),
      );
    const built = await runBounded(
      roots.flatMap(root => [
        () => timed('before', root),
        () => timed('after', root),
      ]),
      KUSTOMIZE_BUILDS_IN_FLIGHT,
    );
    return roots.map((root, i) => ({
      root,
      before: built[2 * i],
      after: built[2 * i + 1],
      kustomizationsAfter: foldersBuiltBy(graphAfter, root).flatMap(
        folder => graphAfter.folders.get(folder)?.file ?? [],
      ),
    }));
  } finally {
    await fs.rm(scratch, { recursive: true, force: true });
  }
}

/** Reads the checkout with the change written over it. */
export function readAfterChange(
  base: RepoTree,
  changeSet: ChangeSet,
): (path: string) => Promise<string | undefined> {
  return async path => {
    const change = changeSet.changes.find(c => c.path === path);
    if (!change) return base.readFile(path);
    return change.action === 'delete' ? undefined : change.content;
  };
}
