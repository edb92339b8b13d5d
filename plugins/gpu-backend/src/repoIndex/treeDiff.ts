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

/** A git object's content, checked to be of `type`; throws when it is missing or another type. */
async function readObject(
  batch: CatFileBatch,
  sha: string,
  type: string,
): Promise<Buffer> {
  const [found] = await batch.read([sha]);
  if (!found || found.type !== type)
    throw new Error(`git object ${sha} is not a ${type} here`);
  return found.data;
}

/** The root tree a commit names. */
async function treeOfCommit(
  batch: CatFileBatch,
  commit: string,
): Promise<string> {
  const header = (await readObject(batch, commit, 'commit')).toString('latin1');
  const match = /^tree ([0-9a-f]+)\n/.exec(header);
  if (!match) throw new Error(`commit ${commit} names no tree`);
  return match[1];
}

/** Which paths the diff of `folders` ('' = everywhere) looks at. */
function folderFilter(folders: string[]) {
  const everywhere = folders.includes('');
  return {
    /** The tree is in a folder asked for, or on the way to one. */
    opens: (path: string) =>
      everywhere ||
      folders.some(
        f => path === f || path.startsWith(`${f}/`) || f.startsWith(`${path}/`),
      ),
    /** The file is in a folder asked for. */
    holds: (path: string) =>
      everywhere || folders.some(f => path === f || path.startsWith(`${f}/`)),
  };
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
  const { opens, holds } = folderFilter(folders);
  const changes: TreeChange[] = [];
  const entriesOf = async (sha: string | undefined) =>
    sha
      ? parseTree(await readObject(batch, sha, 'tree'), idBytes)
      : new Map<string, TreeEntry>();
  const walk = async (
    oldTree: string | undefined,
    newTree: string | undefined,
    prefix: string,
  ): Promise<void> => {
    const [oldEntries, newEntries] = await Promise.all(
      [oldTree, newTree].map(entriesOf),
    );
    const names = new Set([...oldEntries.keys(), ...newEntries.keys()]);
    const subtrees: Promise<void>[] = [];
    for (const name of names) {
      const before = oldEntries.get(name);
      const after = newEntries.get(name);
      if (before?.sha === after?.sha && before?.mode === after?.mode) continue;
      const path = `${prefix}${name}`;
      const oldIsTree = before?.mode === TREE_MODE;
      const newIsTree = after?.mode === TREE_MODE;
      if ((oldIsTree || newIsTree) && opens(path)) {
        subtrees.push(
          walk(
            oldIsTree ? before!.sha : undefined,
            newIsTree ? after!.sha : undefined,
            `${path}/`,
          ),
        );
      }
      const newFile = after && !newIsTree ? after : undefined;
      if (((before && !oldIsTree) || newFile) && holds(path)) {
        changes.push(
          newFile
            ? { path, newMode: rawMode(newFile.mode), newSha: newFile.sha }
            : { path },
        );
      }
    }
    await Promise.all(subtrees);
  };
  const [fromTree, toTree] = await Promise.all([
    treeOfCommit(batch, from),
    treeOfCommit(batch, to),
  ]);
  await walk(fromTree, toTree, '');
  return changes.sort((a, b) => compareStrings(a.path, b.path));
}
