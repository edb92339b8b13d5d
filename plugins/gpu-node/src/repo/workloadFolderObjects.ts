/**
 * The workload objects of one workload folder (`readWorkloadObjects`), kept
 * by what the folder holds: its files' paths, blob ids and layout
 * namespaces. The replicas reader (`deployedWorkloadReplicas.ts`) asks for
 * every GPU workload folder of the repository on every pass (a scale
 * cluster's 10k, the scale repository's ~90k), and read each one's files
 * again though the parse cache had spared the state reader reading them; a
 * re-render now reads only the folders a commit changed (issue 24).
 *
 * Kept beside a parse cache (one set per `ParseCache`), as its parses: the
 * objects come from the documents it parsed, with its parser, and go when
 * it goes. Least recently used first out, past `MAX_FOLDERS`.
 */
import type { RepositoryWorkload } from '@gpu-gitops/plugin-gpu-common';
import type { ParseCache } from './parseCache';

/** Folders kept per parse cache: the scale repository's 100k workloads, about one folder each. */
const MAX_FOLDERS = 100_000;

/** A folder's content as a key: each file's path, blob id and the namespace the layout gives it. */
export type FolderContent = readonly (readonly [string, string, string?])[];

const keptByCache = new WeakMap<
  ParseCache,
  Map<string, readonly RepositoryWorkload[]>
>();

function keptFor(
  cache: ParseCache,
): Map<string, readonly RepositoryWorkload[]> {
  let kept = keptByCache.get(cache);
  if (!kept) {
    kept = new Map();
    keptByCache.set(cache, kept);
  }
  return kept;
}

/** The objects of a folder that held `content` when they were read, if still kept. */
export function keptFolderObjects(
  cache: ParseCache,
  content: FolderContent,
): readonly RepositoryWorkload[] | undefined {
  const kept = keptFor(cache);
  const key = JSON.stringify(content);
  const objects = kept.get(key);
  if (objects) {
    // Most recently used last: a Map keeps insertion order.
    kept.delete(key);
    kept.set(key, objects);
  }
  return objects;
}

/** Keeps the objects read from a folder holding `content`. */
export function keepFolderObjects(
  cache: ParseCache,
  content: FolderContent,
  objects: readonly RepositoryWorkload[],
): void {
  const kept = keptFor(cache);
  kept.set(JSON.stringify(content), objects);
  for (const oldest of kept.keys()) {
    if (kept.size <= MAX_FOLDERS) break;
    kept.delete(oldest);
  }
}
