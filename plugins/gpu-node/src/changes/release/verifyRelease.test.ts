/**
 * A release verifies its roots as a request does: a big GPU root is built
 * in chunks keyed by the blob ids the checkout lists, so the files the
 * release leaves as they are are not read to know what they hold.
 */
import { execFileSync } from 'node:child_process';
import { promises as fsPromises } from 'node:fs';
import { builtinCatalog } from '@gpu-gitops/plugin-gpu-common';
import { CHUNKED_MIN_RESOURCES } from '../../kustomize/chunkedBuild';
import { GitCheckoutTree } from '../../repo/gitCheckoutTree';
import { FsRepoTree } from '../../repo/tree';
import {
  buildableRepoFiles,
  devCluster as cluster,
  removeTempRepo,
  writeTempRepo,
} from '../__fixtures__/gitopsRepo';
import { mlRequest } from '../__fixtures__/requests';
import { buildRequestChange } from '../buildRequestChange';
import { writeChangeSet } from '../stagedTree';
import { buildReleaseChange } from './buildReleaseChange';

// Real kustomize builds (in chunks) on a shared two-core machine: a hang guard.
jest.setTimeout(300_000);

const FILLER = 'clusters/dev/gpu/filler';

/**
 * `buildableRepoFiles` whose GPU root is a root of its own (the cluster's
 * applier lists it apart; no kustomization above it builds its folder
 * whole), holding enough files to be built in chunks.
 */
function bigGpuRootFiles(): Record<string, string> {
  const files = { ...buildableRepoFiles };
  delete files['clusters/dev/kustomization.yaml'];
  const names = Array.from(
    { length: CHUNKED_MIN_RESOURCES },
    (_, i) => `filler/cm-${i}.yaml`,
  );
  for (const [i, name] of names.entries()) {
    files[`clusters/dev/gpu/${name}`] =
      `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: filler-${i}\n  namespace: gpu-operator\n`;
  }
  files['clusters/dev/gpu/kustomization.yaml'] = files[
    'clusters/dev/gpu/kustomization.yaml'
  ].replace(
    'resources:\n',
    `resources:\n${names.map(n => `  - ${n}\n`).join('')}`,
  );
  return files;
}

describe('verifyRelease', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await writeTempRepo(bigGpuRootFiles());
  });
  afterEach(() => removeTempRepo(dir));

  it('reads none of the unchanged files of a GPU root built in chunks: the checkout names them by blob id', async () => {
    const tree = new FsRepoTree(dir);
    const request = mlRequest('chunked', {
      model: 'l4',
      sharing: 'time-slicing',
      slicesPerGpu: 4,
      replicas: 1,
      vramGiB: 4,
    });
    const created = await buildRequestChange({
      tree,
      dir,
      request,
      cluster,
      catalog: builtinCatalog,
    });
    await writeChangeSet(tree, created.changeSet);
    const git = (...args: string[]) =>
      execFileSync('git', args, { cwd: dir, stdio: 'pipe' });
    git('init', '-q');
    git('add', '-A');
    git('-c', 'user.name=t', '-c', 'user.email=t@e', 'commit', '-qm', 'base');

    const readFile = jest.spyOn(fsPromises, 'readFile');
    try {
      const release = await buildReleaseChange({
        tree: new GitCheckoutTree(dir),
        dir,
        request: { namespace: 'ml', name: 'chunked' },
        clusterProfile: () => cluster,
        catalog: builtinCatalog,
      });
      expect(release.verification?.verified).toContain('clusters/dev/gpu');
      const fillerReads = readFile.mock.calls
        .map(([file]) => String(file))
        .filter(file => file.includes(FILLER));
      expect(fillerReads).toEqual([]);
    } finally {
      readFile.mockRestore();
    }
  });
});
