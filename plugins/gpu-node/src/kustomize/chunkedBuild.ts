/**
 * A big root built in chunks. kustomize 4.5.4 spends time quadratic in a
 * root's resources (measured on the scale bench's GPU root of NodePools: 200
 * of them 1.5 s of CPU, 400 4.7 s, 2,000 104 s), so a re-render that changes
 * one pool's ledger waited minutes for the build after, and as long for the
 * one before.
 *
 * A root whose kustomization holds nothing but `resources:` naming files
 * of its own folder runs no transformer or patch: kustomize loads each
 * file's objects, refuses two of one id and orders them (kustomize
 * api/krusty/kustomizer.go and api/resmap/reswrangler.go `Append`, v4.5.4).
 * ConfigMap generators of stable names (`disableNameSuffixHash`, as the
 * product writes its GPU kustomization) rename nothing, so no resource
 * depends on them either: they are a chunk of their own. So its build is
 * the union of the builds of its files taken a chunk at a time, each chunk
 * built by the real kustomize from a copy of its files and remembered by
 * what they hold: a change to one file builds one chunk again. A file git
 * vouches for is known by its blob id (`git/checkoutListing.ts`) and read
 * only when its chunk is built; any other is read and known by its content.
 * Objects come in chunk order (each chunk in kustomize's): the callers that
 * take this path compare objects by id. Any other root is built whole.
 */
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { findKustomizeBinary } from './binary';
import { kustomizeBuild, type BuiltObject } from './build';
import type { BuildRootOptions } from './buildRoot';
import { KustomizeBuildError } from './errors';
import { KUSTOMIZATION_FILE_NAMES } from './fileNames';
import { kustomizationValue } from './kustomization';
import { readSavedBuild, saveBuild } from './savedBuilds';
import { processTurns } from '../repo/eventLoopTurns';

/** Files per chunk, on average (`chunksByName`): about a second of kustomize each (its OpenAPI schema load dominates). */
export const CHUNK_RESOURCES = 100;
/** From this many resource files on, a plain root is built in chunks. */
export const CHUNKED_MIN_RESOURCES = 2 * CHUNK_RESOURCES;

const PLAIN_FIELDS = new Set([
  'apiVersion',
  'kind',
  'resources',
  'configMapGenerator',
  'generatorOptions',
]);
/** What a generator may say and still depend on nothing but its own files (no `behavior`, no env files). */
const GENERATOR_FIELDS = new Set([
  'name',
  'namespace',
  'files',
  'literals',
  'options',
]);
const OPTION_FIELDS = new Set([
  'disableNameSuffixHash',
  'labels',
  'annotations',
  'immutable',
]);

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const onlyFields = (value: unknown, fields: Set<string>) =>
  isRecord(value) && Object.keys(value).every(key => fields.has(key));

/** The file a generator's `files:` entry reads (`key=path` or `path`). */
const generatorSource = (entry: string) =>
  entry.includes('=') ? entry.slice(entry.indexOf('=') + 1) : entry;

/**
 * The files the root's ConfigMap generators read, when each generator names
 * its ConfigMap stably and reads only files of the root; undefined otherwise.
 */
function generatorFiles(value: Record<string, unknown>): string[] | undefined {
  const generators = value.configMapGenerator ?? [];
  const options = value.generatorOptions;
  if (!Array.isArray(generators)) return undefined;
  if (options !== undefined && !onlyFields(options, OPTION_FIELDS)) {
    return undefined;
  }
  const stableEverywhere =
    isRecord(options) && options.disableNameSuffixHash === true;
  const files: string[] = [];
  for (const generator of generators) {
    if (!onlyFields(generator, GENERATOR_FIELDS)) return undefined;
    const own = generator.options;
    if (own !== undefined && !onlyFields(own, OPTION_FIELDS)) return undefined;
    const stable =
      stableEverywhere || (isRecord(own) && own.disableNameSuffixHash === true);
    const sources = generator.files ?? [];
    if (!stable || !Array.isArray(sources)) return undefined;
    for (const entry of sources) {
      if (typeof entry !== 'string') return undefined;
      files.push(generatorSource(entry));
    }
  }
  return files;
}

/** A big root that lists only files and stable generators (see above). */
export interface PlainRoot {
  /** Its `resources:` entries, each a file of the root. */
  resources: string[];
  /** Its generator fields as written (none: an empty object). */
  generators: Record<string, unknown>;
  /** The files the generators read. */
  generatorFiles: string[];
}

/** A `resources:` entry naming a file below the root (no URL, no `..`, no absolute path). */
const isLocalFileEntry = (entry: unknown): entry is string =>
  typeof entry === 'string' &&
  entry !== '' &&
  !entry.includes('://') &&
  !path.posix.isAbsolute(entry) &&
  !path.posix.normalize(entry).startsWith('..');

/** A regular file (no symbolic link, no folder: a folder is a kustomization of its own). */
async function isRegularFile(file: string): Promise<boolean> {
  const stat = await fs.lstat(file).catch(() => undefined);
  return Boolean(stat?.isFile());
}

/**
 * Where each file of a root is on disk, by its path relative to the root:
 * in the root's folder, or (the build after a change) the change's own
 * files in a scratch folder and the others where the checkout holds them.
 */
export type RootFiles = (entry: string) => string;

const filesIn =
  (rootDir: string): RootFiles =>
  entry =>
    path.join(rootDir, entry);

/**
 * The kustomization of the root at `rootDir` (or whose files are at
 * `fileOf`) when it holds nothing else than `resources:` naming regular
 * files below it and ConfigMap generators of stable names reading such
 * files; undefined otherwise.
 */
export async function plainRoot(
  at: string | RootFiles,
): Promise<PlainRoot | undefined> {
  const fileOf = typeof at === 'string' ? filesIn(at) : at;
  const present: string[] = [];
  for (const name of KUSTOMIZATION_FILE_NAMES) {
    if (await isRegularFile(fileOf(name))) present.push(name);
  }
  // None, or two (kustomize's error to report): built whole.
  if (present.length !== 1) return undefined;
  const text = await fs.readFile(fileOf(present[0]), 'utf8');
  const value = kustomizationValue(present[0], text);
  if (!value || Object.keys(value).some(key => !PLAIN_FIELDS.has(key))) {
    return undefined;
  }
  const resources = value.resources;
  const sources = generatorFiles(value);
  if (!Array.isArray(resources) || !sources) return undefined;
  for (const entry of [...resources, ...sources]) {
    if (!isLocalFileEntry(entry)) return undefined;
    if (!(await isRegularFile(fileOf(entry)))) return undefined;
  }
  const generators = Object.fromEntries(
    Object.entries(value).filter(
      ([key]) => key === 'configMapGenerator' || key === 'generatorOptions',
    ),
  );
  return { resources, generators, generatorFiles: sources };
}

const MAX_REMEMBERED_CHUNKS = 256;
const rememberedChunks = new Map<string, BuiltObject[]>();
const chunksUnderWay = new Map<string, Promise<BuiltObject[]>>();

function rememberChunk(key: string, objects: BuiltObject[]): void {
  rememberedChunks.set(key, objects);
  if (rememberedChunks.size > MAX_REMEMBERED_CHUNKS) {
    rememberedChunks.delete(rememberedChunks.keys().next().value!);
  }
}

/**
 * One chunk built by kustomize from a copy of its files (from `fileOf`,
 * unless read already), at the root's own path (its messages name the
 * repository's files).
 */
async function buildChunk(
  fileOf: RootFiles,
  root: string,
  chunk: Chunk,
  options: BuildRootOptions,
): Promise<BuiltObject[]> {
  const { files, fields } = chunk;
  const scratch = await fs.mkdtemp(path.join(os.tmpdir(), 'gpu-gitops-chunk-'));
  try {
    const rootDir = path.join(scratch, ...root.split('/'));
    for (const { entry, text } of files) {
      const file = path.join(rootDir, entry);
      await fs.mkdir(path.dirname(file), { recursive: true });
      if (text) await fs.writeFile(file, text);
      else await fs.copyFile(fileOf(entry), file);
    }
    const kustomization = JSON.stringify({
      apiVersion: 'kustomize.config.k8s.io/v1beta1',
      kind: 'Kustomization',
      ...fields,
    });
    await fs.mkdir(rootDir, { recursive: true });
    await fs.writeFile(path.join(rootDir, 'kustomization.yaml'), kustomization);
    return await kustomizeBuild(rootDir, {
      ...options,
      pathsRelativeTo: scratch,
    });
  } finally {
    await fs.rm(scratch, { recursive: true, force: true });
  }
}

/** One file of a chunk: what it holds (its blob id, or its content's digest), and its content when read for that. */
interface ChunkFile {
  entry: string;
  holds: string;
  text?: Buffer;
}

/** The files and the kustomization fields of one chunk. */
interface Chunk {
  files: ChunkFile[];
  fields: Record<string, unknown>;
}

/**
 * Where chunk builds are saved across processes: beside the whole-root
 * builds of `cacheDir` (`buildRoot.ts`), in a folder of their own so that
 * a root's chunks never push out its whole builds (bounded apart).
 */
const savedChunksIn = (cacheDir: string | undefined) =>
  cacheDir && path.join(cacheDir, 'chunks');

/** A chunk's build from the cache folder, else from kustomize (then saved there). */
async function savedOrBuilt(
  key: string,
  build: () => Promise<BuiltObject[]>,
  options: BuildRootOptions,
): Promise<BuiltObject[]> {
  const folder = savedChunksIn(options.cacheDir);
  const saved = await readSavedBuild(folder, key);
  if (saved) return saved;
  const objects = await build();
  await saveBuild(folder, key, objects, MAX_REMEMBERED_CHUNKS);
  return objects;
}

/**
 * The chunk's build: remembered by its fields and what its files hold (in
 * memory, and in the cache folder across processes), shared while under way.
 */
function chunkBuild(
  fileOf: RootFiles,
  root: string,
  chunk: Chunk,
  options: BuildRootOptions,
): Promise<BuiltObject[]> {
  const hash = createHash('sha256');
  hash.update(
    JSON.stringify([
      findKustomizeBinary(options.env ?? process.env),
      root,
      chunk.fields,
    ]),
  );
  for (const { entry, holds } of chunk.files) {
    hash.update(`\0${entry}\0${holds}`);
  }
  const key = hash.digest('hex');
  const known = rememberedChunks.get(key);
  if (known) return Promise.resolve(known);
  let building = chunksUnderWay.get(key);
  if (!building) {
    building = savedOrBuilt(
      key,
      () => buildChunk(fileOf, root, chunk, options),
      options,
    ).then(objects => {
      rememberChunk(key, objects);
      return objects;
    });
    chunksUnderWay.set(key, building);
    const done = () => chunksUnderWay.delete(key);
    building.then(done, done);
  }
  return building;
}

/**
 * kustomize's identity of an object for its duplicate check, taken
 * broadly (any version of a group, `default` as no namespace): never laxer
 * than kustomize, so a duplicate it refuses is refused here too.
 */
function duplicateKey(o: BuiltObject): string {
  const apiVersion = String(o.apiVersion ?? '');
  const group = apiVersion.includes('/') ? apiVersion.split('/')[0] : '';
  const namespace = String(o.metadata.namespace ?? '');
  return `${group}|${o.kind}|${namespace === 'default' ? '' : namespace}|${o.metadata.name}`;
}

/**
 * The files of `entries` of the root `root` (at `fileOf`), each known by
 * its blob id when `blobIds` names it, else read and known by its content's
 * digest. The two are told apart in the key: a text known both ways makes
 * two keys, at worst one chunk built twice, never a stale build reused.
 */
const knownEntries = (
  fileOf: RootFiles,
  root: string,
  entries: string[],
  blobIds: ReadonlyMap<string, string>,
): Promise<ChunkFile[]> =>
  Promise.all(
    entries.map(async entry => {
      const id = blobIds.get(path.posix.join(root, entry));
      if (id !== undefined) return { entry, holds: `blob ${id}` };
      const text = await fs.readFile(fileOf(entry));
      const digest = createHash('sha256').update(text).digest('hex');
      return { entry, holds: `sha256 ${digest}`, text };
    }),
  );

/** How the root's files are split and known. */
export interface ChunkingOptions {
  /** Resource files per chunk. */
  chunkSize?: number;
  /**
   * The blob id of each file of the tree at `dir` that git vouches for, by
   * repository path (`git/checkoutListing.ts`): those files are not read to know
   * what they hold. It must describe the tree as built: a file written
   * since (the change's own files) must not be in it.
   */
  blobIds?: ReadonlyMap<string, string>;
  /** Where the root's files are (default: in its folder under `dir`). */
  fileOf?: RootFiles;
}

/** FNV-1a (32 bits) of a resource entry: where its chunk ends, the same in every process. */
function entryHash(entry: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < entry.length; i++) {
    hash = Math.imul(hash ^ entry.charCodeAt(i), 0x01000193);
  }
  return hash >>> 0;
}

/**
 * The resource files cut into chunks where their entries say, not where
 * their count does: a chunk ends after an entry whose hash is 0 modulo
 * `chunkSize` (about `chunkSize` files a chunk), or when it holds twice
 * that. A file added to the list or taken from it changes the chunk it
 * falls in, and no other (cut by count, a new pool in the middle of a
 * 2,000-file root shifted every chunk after it, and the build after a
 * re-render built half the root again).
 */
export function chunksByName<T extends { entry: string }>(
  files: readonly T[],
  chunkSize: number,
): T[][] {
  const chunks: T[][] = [];
  let chunk: T[] = [];
  for (const file of files) {
    chunk.push(file);
    if (
      entryHash(file.entry) % chunkSize === 0 ||
      chunk.length >= 2 * chunkSize
    ) {
      chunks.push(chunk);
      chunk = [];
    }
  }
  if (chunk.length > 0) chunks.push(chunk);
  return chunks;
}

/**
 * The build of the plain root `root` (repository-relative) of the tree at
 * `dir` (`plainRoot`): its generators as one chunk, its resource files
 * `chunkSize` at a time. Throws KustomizeBuildError as a whole build
 * would: a chunk's own error, or two objects of one id.
 */
export async function buildPlainRootInChunks(
  dir: string,
  root: string,
  plain: PlainRoot,
  options: BuildRootOptions = {},
  chunking: ChunkingOptions = {},
): Promise<BuiltObject[]> {
  const rootDir = root === '.' ? dir : path.join(dir, ...root.split('/'));
  const {
    chunkSize = CHUNK_RESOURCES,
    blobIds = new Map(),
    fileOf = filesIn(rootDir),
  } = chunking;
  const files = await knownEntries(fileOf, root, plain.resources, blobIds);
  const chunks: Chunk[] = [];
  if (Object.keys(plain.generators).length > 0) {
    chunks.push({
      files: await knownEntries(fileOf, root, plain.generatorFiles, blobIds),
      fields: plain.generators,
    });
  }
  for (const slice of chunksByName(files, chunkSize)) {
    chunks.push({
      files: slice,
      fields: { resources: slice.map(f => f.entry) },
    });
  }
  const built = await Promise.all(
    chunks.map(chunk => chunkBuild(fileOf, root, chunk, options)),
  );
  const seen = new Set<string>();
  const objects: BuiltObject[] = [];
  // A scale cluster's root is tens of thousands of objects, each copied
  // (the remembered chunks stay as built): the backend answers between slices.
  for (const object of built.flat()) {
    await processTurns();
    const key = duplicateKey(object);
    if (seen.has(key)) {
      throw new KustomizeBuildError(
        rootDir,
        `may not add resource with an already registered id: ${object.kind} ${object.metadata.name}`,
      );
    }
    seen.add(key);
    objects.push(structuredClone(object));
  }
  return objects;
}
