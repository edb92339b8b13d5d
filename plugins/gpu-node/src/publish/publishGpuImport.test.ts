import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  builtinCatalog,
  isGpuInputError,
  parseGpuRequestYaml,
  resolveClusterProfile,
} from '@gpu-gitops/plugin-gpu-common';
import { BareRemote, createBareRemote } from '../git/__testUtils__/bareRemote';
import { legacyKarpenterRepoFiles } from '../import/__testUtils__/legacyRepoFiles';
import { LocalPullRequests } from '../forges/localPullRequests';
import { publishGpuImport, PublishGpuImportOptions } from './publishGpuImport';

const OWNER = 'group:default/ml-platform';

describe('publishGpuImport', () => {
  let remote: BareRemote;
  let cacheDir: string;

  beforeEach(async () => {
    remote = await createBareRemote(legacyKarpenterRepoFiles());
    cacheDir = await fs.mkdtemp(path.join(os.tmpdir(), 'gpu-gitops-import-'));
  });
  afterEach(async () => {
    await remote.cleanup();
    await fs.rm(cacheDir, { recursive: true, force: true });
  });

  const importLegacy = (more: Partial<PublishGpuImportOptions> = {}) =>
    publishGpuImport({
      catalog: builtinCatalog,
      repoUrl: remote.url,
      cacheDir,
      cluster: resolveClusterProfile({ name: 'legacy' }),
      owner: OWNER,
      ...more,
    });

  it('dry run, then one commit on gpu/import-<cluster> with the report as the pull request body; a re-run changes nothing', async () => {
    const mainBefore = await remote.branchSha('main');
    const dryRun = await importLegacy({ dryRun: true });
    expect(dryRun.changed).toBe(true);
    expect(dryRun.diff).toContain('--- /dev/null\n+++ b/requests/ml/chat.yaml');
    expect(dryRun.diff).toContain('+apiVersion: karpenter.sh/v1');
    expect(await remote.branchSha('gpu/import-legacy')).toBeUndefined();

    const first = await importLegacy();
    expect(first.branch).toBe('gpu/import-legacy');
    expect(first.changed).toBe(true);
    expect(first.url).toBe(`file://${remote.url}#gpu/import-legacy`);
    expect(first.files).toEqual(dryRun.files);
    expect(first.body).toBe(dryRun.body);
    expect(await remote.branchSha('main')).toBe(mainBefore);
    // One commit on main, with the trailer.
    const log = await remote.git([
      'log',
      '--format=%P %B',
      'main..gpu/import-legacy',
    ]);
    expect(log.trim().split('\n')[0]).toMatch(
      new RegExp(
        `^${mainBefore} gpu\\(import/legacy\\): adopt the existing GPU setup`,
      ),
    );
    expect(log).toContain('Gpu-Import: legacy');
    expect(
      parseGpuRequestYaml(
        (await remote.readFile('gpu/import-legacy', 'requests/ml/chat.yaml'))!,
      ).spec.gpu,
    ).toMatchObject({ model: 't4', sharing: 'time-slicing', replicas: 3 });
    // The local forge's pull request carries the report.
    const pulls = new LocalPullRequests({
      repoUrl: remote.url,
      cacheDir: path.join(cacheDir, 'review'),
    });
    const [pr] = await pulls.list();
    expect(pr).toMatchObject({
      branch: 'gpu/import-legacy',
      title: first.title,
    });
    expect(pr.body).toBe(first.body);
    expect(pr.body).toContain('### GPU pools adopted');

    // Re-running updates the same branch to the same commit.
    const again = await importLegacy();
    expect(again.commit).toBe(first.commit);

    // Merged, a new import has nothing to do: no commit, no pull request.
    await remote.git(['update-ref', 'refs/heads/main', first.commit!]);
    const adopted = await importLegacy();
    expect(adopted).toMatchObject({ changed: false, files: [] });
    expect(adopted.url).toBeUndefined();
    expect(adopted.text).toContain(
      'nothing to change, the repository is adopted already',
    );
  });

  it('refuses a bad owner or an unknown cluster folder by name, and pushes nothing', async () => {
    const badOwner = await importLegacy({ owner: 'ml-platform' }).catch(e => e);
    expect(isGpuInputError(badOwner)).toBe(true);
    expect(badOwner.issues[0]).toMatchObject({
      path: 'owner',
      rule: 'entity-ref',
    });
    const noFolder = await importLegacy({
      cluster: resolveClusterProfile({ name: 'staging' }),
    }).catch(e => e);
    expect(noFolder.issues[0]).toMatchObject({
      path: 'cluster',
      rule: 'cluster-folder-empty',
    });
    expect(noFolder.message).toContain('clusters/staging/');
    expect(
      (await remote.git(['for-each-ref', '--format=%(refname)'])).trim(),
    ).toBe('refs/heads/main');
  });
});
