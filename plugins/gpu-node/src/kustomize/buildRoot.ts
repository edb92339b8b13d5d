/**
 * Builds one kustomization root of a tree, the way a GitOps tool would, for
 * every check that needs the built objects (`validate`, and the publisher's
 * own check before it writes). Roots with Helm charts are built without them
 * unless asked (offline, no helm binary).
 *
 * kustomize 4.5.4 parses its whole built-in OpenAPI schema (about a second)
 * as soon as a root holds a kind it does not know, such as a NodePool: so a
 * build is remembered by the content of every file it can read, and an
 * identical tree (the base of twenty pull requests, the roots a merge did
 * not touch) is built once. In a clean git checkout a big root's files are
 * named by their git blob ids instead of read (`committedInputs.ts`).
 */
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { findKustomizeBinary } from './binary';
import { committedFiles } from './committedInputs';
import {
  kustomizeBuild,
  type BuiltObject,
  type KustomizeBuildOptions,
} from './build';
import { foldersBuiltBy, type KustomizationGraph } from './roots';
import { readSavedBuild, saveBuild } from './savedBuilds';
import { kustomizeBuildWithoutHelmCharts } from './withoutHelmCharts';

/** @public */
export interface BuildRootOptions extends KustomizeBuildOptions {
  /** Inflate Helm charts (`--enable-helm`); off: they are left out. */
  enableHelm?: boolean;
  /**
   * A folder to remember builds in across processes (the publisher's clone
   * cache): the base a request is checked against is mostly unchanged
   * between runs. In memory only without it.
   */
  cacheDir?: string;
}

/** @public */
export interface BuiltRootResult {
  objects: BuiltObject[];
  /** Folders whose Helm charts were left out of the build. */
  chartsLeftOut: string[];
}

const MAX_REMEMBERED = 64;
const remembered = new Map<string, BuiltObject[]>();

function remember(key: string, objects: BuiltObject[]): void {
  remembered.set(key, objects);
  if (remembered.size > MAX_REMEMBERED) {
    remembered.delete(remembered.keys().next().value!);
  }
}

async function filesUnder(dir: string, rel: string, out: string[]) {
  let entries;
  try {
    entries = await fs.readdir(path.join(dir, rel), { withFileTypes: true });
  } catch {
    return;
  }
  for (const entry of entries) {
    if (entry.name === '.git') continue;
    const child = rel ? `${rel}/${entry.name}` : entry.name;
    if (entry.isDirectory()) await filesUnder(dir, child, out);
    else if (entry.isFile()) out.push(child);
  }
}

/**
 * From this many files on, a root's files are named by git rather than read:
 * two git processes cost about what reading and hashing a few hundred small
 * files does, and the GPU folder of a cluster holds far fewer.
 */
export const GIT_KEYED_MIN_FILES = 256;

/**
 * A digest of everything the build can read: the files of every folder it
 * builds from, by their git blob ids where the checkout holds exactly what
 * its index says (`committedFiles`), read and hashed otherwise.
 */
async function inputDigest(
  dir: string,
  root: string,
  folders: string[],
  options: BuildRootOptions,
): Promise<string> {
  const hash = createHash('sha256');
  hash.update(
    JSON.stringify([
      findKustomizeBinary(options.env ?? process.env),
      root,
      Boolean(options.enableHelm),
    ]),
  );
  const files: string[] = [];
  for (const folder of folders) {
    await filesUnder(dir, folder === '.' ? '' : folder, files);
  }
  const committed =
    files.length >= GIT_KEYED_MIN_FILES
      ? await committedFiles(dir, folders)
      : undefined;
  if (committed) {
    hash.update(`\0git index\0${committed.join('\0')}`);
    return hash.digest('hex');
  }
  for (const file of [...new Set(files)].sort()) {
    hash.update(`\0${file}\0`);
    hash.update(await fs.readFile(path.join(dir, file)));
  }
  return hash.digest('hex');
}

/**
 * `kustomize build` of `root` (repository-relative) of the tree at `dir`.
 * Throws KustomizeBuildError / KustomizeNotFoundError like `kustomizeBuild`.
 *
 * @public
 */
export async function buildKustomizationRoot(
  dir: string,
  graph: KustomizationGraph,
  root: string,
  options: BuildRootOptions = {},
): Promise<BuiltRootResult> {
  const folders = foldersBuiltBy(graph, root);
  const chartsLeftOut = options.enableHelm
    ? []
    : folders.filter(f => graph.folders.get(f)?.inflatesHelmCharts);
  const key = await inputDigest(dir, root, folders, options);
  let building = underWay.get(key);
  if (!building) {
    building = builtOnce(key, { dir, root, folders, chartsLeftOut }, options);
    underWay.set(key, building);
    building.then(
      () => underWay.delete(key),
      () => underWay.delete(key),
    );
  }
  return { objects: structuredClone(await building), chartsLeftOut };
}

/**
 * Builds of the same inputs under way: a second caller waits for the first
 * rather than start another kustomize (the publisher starts the base's
 * build of the cluster's root while it plans; its verification then asks
 * for the same build).
 */
const underWay = new Map<string, Promise<BuiltObject[]>>();

/** The build of inputs `key`: remembered, saved, or made now. */
async function builtOnce(
  key: string,
  input: {
    dir: string;
    root: string;
    folders: string[];
    chartsLeftOut: string[];
  },
  options: BuildRootOptions,
): Promise<BuiltObject[]> {
  const known =
    remembered.get(key) ?? (await readSavedBuild(options.cacheDir, key));
  if (known) {
    remember(key, known);
    return known;
  }
  const { dir, root, folders } = input;
  const objects =
    input.chartsLeftOut.length > 0
      ? await kustomizeBuildWithoutHelmCharts(dir, root, folders, options)
      : await kustomizeBuild(
          root === '.' ? dir : path.join(dir, ...root.split('/')),
          { ...options, pathsRelativeTo: dir },
        );
  remember(key, objects);
  await saveBuild(options.cacheDir, key, objects, MAX_REMEMBERED);
  return objects;
}
