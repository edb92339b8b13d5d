/**
 * An import verifies its roots as a request does: a big root is built in
 * chunks keyed by the blob ids the checkout lists, so the files the import
 * leaves as they are are not read to know what they hold.
 */
import { execFileSync } from 'node:child_process';
import { promises as fsPromises } from 'node:fs';
import { CHUNKED_MIN_RESOURCES } from '../kustomize/chunkedBuild';
import { GitCheckoutTree } from '../repo/gitCheckoutTree';
import {
  removeTempRepo,
  writeTempRepo,
} from '../changes/__fixtures__/gitopsRepo';
import type { ChangeSet } from '../changes/types';
import { verifyImport, type ExpectedImport } from './verifyImport';

// Real kustomize builds (in chunks) on a shared two-core machine: a hang guard.
jest.setTimeout(300_000);

const ROOT = 'clusters/legacy/karpenter';
const configMap = (i: number, comment = '') =>
  `${comment}apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm-${i}\n  namespace: karpenter\n`;

/** A root of enough plain files to be built in chunks. */
function bigRootFiles(): Record<string, string> {
  const names = Array.from(
    { length: CHUNKED_MIN_RESOURCES },
    (_, i) => `cm-${i}.yaml`,
  );
  return {
    [`${ROOT}/kustomization.yaml`]: `resources:\n${names.map(n => `  - ${n}\n`).join('')}`,
    ...Object.fromEntries(
      names.map((name, i) => [`${ROOT}/${name}`, configMap(i)]),
    ),
  };
}

/** An import that converts and adopts nothing there. */
const nothingExpected = {
  changedBefore: new Set<string>(),
  changedAfter: new Set<string>(),
  keptLegacy: new Set<string>(),
  addedAnnotations: new Map(),
} as unknown as ExpectedImport;

describe('verifyImport', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await writeTempRepo(bigRootFiles());
    const git = (...args: string[]) =>
      execFileSync('git', args, { cwd: dir, stdio: 'pipe' });
    git('init', '-q');
    git('add', '-A');
    git('-c', 'user.name=t', '-c', 'user.email=t@e', 'commit', '-qm', 'base');
  });
  afterEach(() => removeTempRepo(dir));

  it('reads none of the unchanged files of a root built in chunks: the checkout names them by blob id', async () => {
    // A comment the import's rewrite of one file adds: no object changes.
    const changeSet: ChangeSet = {
      empty: false,
      changes: [
        {
          path: `${ROOT}/cm-0.yaml`,
          action: 'update',
          content: configMap(0, '# converted\n'),
        },
      ],
    } as ChangeSet;
    const readFile = jest.spyOn(fsPromises, 'readFile');
    try {
      const result = await verifyImport(
        dir,
        changeSet,
        nothingExpected,
        undefined,
        new GitCheckoutTree(dir),
      );
      expect(result.verified).toEqual([ROOT]);
      const unchangedReads = readFile.mock.calls
        .map(([file]) => String(file))
        .filter(
          file =>
            file.includes(`${ROOT}/cm-`) && !file.endsWith(`${ROOT}/cm-0.yaml`),
        );
      expect(unchangedReads).toEqual([]);
    } finally {
      readFile.mockRestore();
    }
  });
});
