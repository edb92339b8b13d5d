/**
 * What changed between two commits under some folders, read from git's
 * tree objects through the index's long-lived `cat-file --batch`
 * (`catFileBatch.ts`): the answer `git diff --raw --no-renames <from> <to>
 * -- <folders>` gives, without a git process per refresh. Only subtrees
 * whose object id differs are opened, so a one-file commit reads a few
 * trees whatever the size of the repository.
 */
import { compareStrings } from '@gpu-gitops/plugin-gpu-common';
import type { CatFileBatch } from './catFileBatch';

/** One entry of a tree object: "<mode> <name>\0<binary object id>". */
interface TreeEntry {
  mode: string;
  sha: string;
}

const TREE_MODE = '40000';

/** The entries of a tree object (git writes tree modes without the leading 0). */
function parseTree(data: Buffer, idBytes: number): Map<string, TreeEntry> {
  const entries = new Map<string, TreeEntry>();
  let offset = 0;
  while (offset < data.length) {
    const space = data.indexOf(32, offset);
    const nul = data.indexOf(0, space);
    const mode = data.subarray(offset, space).toString('latin1');
    const name = data.subarray(space + 1, nul).toString('utf8');
    const sha = data.subarray(nul + 1, nul + 1 + idBytes).toString('hex');
    entries.set(name, { mode, sha });
    offset = nul + 1 + idBytes;
  }
  return entries;
}

/** A file's mode as `git diff --raw` prints it (six digits). */
const rawMode = (mode: string) => mode.padStart(6, '0');

export interface TreeChange {
  path: string;
  /** Undefined when the file is gone. */
  newMode?: string;
  newSha?: string;
}

/**
 * Every file (non-tree entry) that differs between the trees of commits
 * `from` and `to` under `folders` ('' = everywhere). Throws when an object
 * is missing (the caller lists the whole commit instead).
 */
export async function diffCommits(
  batch: CatFileBatch,
  from: string,
  to: string,
  folders: string[],
): Promise<TreeChange[]> {
  const idBytes = from.length / 2;
  const object = async (sha: string, type: string) => {
    const [found] = await batch.read([sha]);
    if (!found || found.type !== type)
      throw new Error(`git object ${sha} is not a ${type} here`);
    return found.data;
  };
  const treeOf = async (commit: string) => {
    const header = (await object(commit, 'commit')).toString('latin1');
    const match = /^tree ([0-9a-f]+)\n/.exec(header);
    if (!match) throw new Error(`commit ${commit} names no tree`);
    return match[1];
  };
  const everywhere = folders.includes('');
  /** The path is in a folder asked for, or on the way to one. */
  const wanted = (path: string, tree: boolean) =>
    everywhere ||
    folders.some(
      f =>
        path === f ||
        path.startsWith(`${f}/`) ||
        (tree && f.startsWith(`${path}/`)),
    );
  const inFolders = (path: string) =>
    everywhere || folders.some(f => path === f || path.startsWith(`${f}/`));

  const changes: TreeChange[] = [];
  const walk = async (
    oldTree: string | undefined,
    newTree: string | undefined,
    prefix: string,
  ): Promise<void> => {
    const [oldEntries, newEntries] = await Promise.all(
      [oldTree, newTree].map(async sha =>
        sha ? parseTree(await object(sha, 'tree'), idBytes) : new Map(),
      ),
    );
    const names = new Set([...oldEntries.keys(), ...newEntries.keys()]);
    const subtrees: Promise<void>[] = [];
    for (const name of names) {
      const before: TreeEntry | undefined = oldEntries.get(name);
      const after: TreeEntry | undefined = newEntries.get(name);
      if (
        before &&
        after &&
        before.sha === after.sha &&
        before.mode === after.mode
      )
        continue;
      const path = `${prefix}${name}`;
      const oldIsTree = before?.mode === TREE_MODE;
      const newIsTree = after?.mode === TREE_MODE;
      if ((oldIsTree || newIsTree) && wanted(path, true)) {
        subtrees.push(
          walk(
            oldIsTree ? before!.sha : undefined,
            newIsTree ? after!.sha : undefined,
            `${path}/`,
          ),
        );
      }
      const oldFile = before && !oldIsTree ? before : undefined;
      const newFile = after && !newIsTree ? after : undefined;
      if ((oldFile || newFile) && inFolders(path)) {
        changes.push(
          newFile
            ? { path, newMode: rawMode(newFile.mode), newSha: newFile.sha }
            : { path },
        );
      }
    }
    await Promise.all(subtrees);
  };
  const [fromTree, toTree] = await Promise.all([treeOf(from), treeOf(to)]);
  await walk(fromTree, toTree, '');
  return changes.sort((a, b) => compareStrings(a.path, b.path));
}
