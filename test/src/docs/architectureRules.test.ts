/**
 * `docs/architecture.md`'s "Where each rule lives" sends a reader to one
 * place per rule: every file or folder a row names must exist, or the
 * newcomer it was written for opens nothing. A name may be a path under
 * `plugins/` or `packages/` (`gpu-node/src/repo/`), one that continues the
 * row's previous path (`…/wiring/x.ts`), a bare file name (`poolCost.ts`),
 * or a pattern (`sharing*.ts`, `clusterApi<Infrastructure>.ts`,
 * `aws/azureMachines.ts` for two siblings).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../../..');

const trackedFiles = execFileSync('git', ['ls-files'], {
  cwd: ROOT,
  encoding: 'utf8',
})
  .split('\n')
  .filter(Boolean);

/** The code spans of the rule list that name a file or a folder. */
export function namedPaths(markdown: string): string[] {
  const start = markdown.indexOf('## Where each rule lives');
  const end = markdown.indexOf('\n## ', start + 1);
  const table = markdown.slice(start, end === -1 ? undefined : end);
  return [...table.matchAll(/`([^`\s]+)`/g)]
    .map(match => match[1])
    .filter(name => /\.(tsx?|json|ya?ml|md)$|\/$/.test(name))
    // A label key's prefix (`node-role.kubernetes.io/`) names no file.
    .filter(name => !/^[^/]*\.[^/]*\//.test(name));
}

/** A regular expression for a named path: `*` and `<…>` match one name's part. */
function pattern(name: string): RegExp {
  const escaped = name
    .replace(/^…\//, '')
    .replace(/\/$/, '')
    .replace(/[.+?^${}()|[\]\\]/g, '\\$&')
    .replace(/\*|<[^>]+>/g, '[^/]*');
  return new RegExp(`(^|/)${escaped}($|/)`);
}

/** `aws/azureMachines.ts`: two sibling files written as one. */
function siblings(name: string): string[] | undefined {
  const sibling = /^([a-z]+)\/([a-z]+)([A-Z]\w*\.tsx?)$/.exec(name);
  if (!sibling) return undefined;
  const [, first, second, rest] = sibling;
  return [`${first}${rest}`, `${second}${rest}`];
}

const tracked = (name: string) =>
  trackedFiles.some(file => pattern(name).test(file));

function exists(name: string): boolean {
  return tracked(name) || (siblings(name)?.every(tracked) ?? false);
}

describe("architecture.md's rule list", () => {
  const markdown = readFileSync(
    path.join(ROOT, 'docs/architecture.md'),
    'utf8',
  );

  it('names files and folders that all exist', () => {
    const named = namedPaths(markdown);
    expect(named.length).toBeGreaterThan(100);
    expect(named.filter(name => !exists(name))).toEqual([]);
  });

  it('fails on a row that names a file nobody has', () => {
    const withStaleRow = markdown.replace(
      '## Where each rule lives\n',
      '## Where each rule lives\n\n| a rule | `gpu-node/src/repo/sharedResourcePool.ts` |\n',
    );
    expect(namedPaths(withStaleRow).filter(name => !exists(name))).toEqual([
      'gpu-node/src/repo/sharedResourcePool.ts',
    ]);
  });
});
