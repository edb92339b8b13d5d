/**
 * Reads of many objects in one git process each: the updater reads every
 * open request branch (a thousand on a large platform, issue 24), and a git
 * process per commit, per request file and per diff cost minutes there.
 */

/** A git runner of a clone that can write to git's stdin. */
export interface BatchGit {
  run(args: string[], options?: { stdin?: string }): Promise<string>;
}

/**
 * The content of each object `specs` names (`<sha>`, `<rev>:<path>`), in
 * order; undefined where git has none (`git cat-file --batch`: "<spec>
 * missing"). The objects are product-written text (commits, YAML), read
 * back as UTF-8.
 */
export async function readObjects(
  git: BatchGit,
  specs: readonly string[],
): Promise<(string | undefined)[]> {
  if (specs.length === 0) return [];
  if (specs.some(s => s.includes('\n'))) {
    throw new Error('an object name for git cat-file holds a newline');
  }
  const out = Buffer.from(
    await git.run(['cat-file', '--batch'], { stdin: `${specs.join('\n')}\n` }),
    'utf8',
  );
  const objects: (string | undefined)[] = [];
  let at = 0;
  for (const spec of specs) {
    const eol = out.indexOf(10, at);
    if (eol < 0) throw new Error(`git cat-file --batch stopped before ${spec}`);
    const header = out.toString('utf8', at, eol);
    at = eol + 1;
    // "<oid> <type> <size>", or "<spec> missing" / "<spec> ambiguous".
    const size = /^[0-9a-f]{40,64} \S+ (\d+)$/.exec(header)?.[1];
    if (size === undefined) {
      objects.push(undefined);
      continue;
    }
    const end = at + Number(size);
    objects.push(out.toString('utf8', at, end));
    at = end + 1;
  }
  return objects;
}

/**
 * The paths each commit of `shas` changes against its first parent, by
 * commit (`git diff-tree --stdin`: trees only, no renames, so a blob-less
 * clone fetches nothing). A commit without a parent in the clone is absent.
 */
export async function changedPathsOfCommits(
  git: BatchGit,
  shas: readonly string[],
): Promise<Map<string, string[]>> {
  const byCommit = new Map<string, string[]>();
  if (shas.length === 0) return byCommit;
  const wanted = new Set(shas);
  const out = await git.run(
    ['diff-tree', '--stdin', '-r', '--name-only', '--no-renames', '-z'],
    { stdin: `${[...wanted].join('\n')}\n` },
  );
  let current: string[] | undefined;
  for (const token of out.split('\0')) {
    if (wanted.has(token) && !byCommit.has(token)) {
      current = [];
      byCommit.set(token, current);
    } else if (token && current) {
      current.push(token);
    }
  }
  return byCommit;
}
