import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { resolveClusterProfile } from '@gpu-gitops/plugin-gpu-common';
import { BareRemote, createBareRemote } from '../git/__testUtils__/bareRemote';
import { gpuRepoFiles } from '../validate/__fixtures__/gpuRepo';
import {
  publishGpuBootstrap,
  type PublishGpuBootstrapOptions,
} from './publishGpuBootstrap';

// Real git on a shared, busy CI machine: a ceiling that catches hangs.
jest.setTimeout(120_000);

describe('publishGpuBootstrap', () => {
  let remote: BareRemote;
  let cacheDir: string;

  beforeEach(async () => {
    remote = await createBareRemote(gpuRepoFiles());
    cacheDir = await fs.mkdtemp(path.join(os.tmpdir(), 'gpu-gitops-boot-'));
  });
  afterEach(async () => {
    await remote.cleanup();
    await fs.rm(cacheDir, { recursive: true, force: true });
  });

  const bootstrap = (more: Partial<PublishGpuBootstrapOptions> = {}) =>
    publishGpuBootstrap({
      repoUrl: remote.url,
      cacheDir,
      cluster: resolveClusterProfile({ name: 'prod' }),
      ...more,
    });

  it('dry run, then one commit on gpu/bootstrap-<cluster> whose message and pull request carry the same description; once merged, a re-run changes nothing', async () => {
    const mainBefore = await remote.branchSha('main');
    const dryRun = await bootstrap({ dryRun: true });
    expect(dryRun).toMatchObject({
      branch: 'gpu/bootstrap-prod',
      changed: true,
      dryRun: true,
      title: 'GPU bootstrap for cluster prod',
    });
    expect(dryRun.files).toContain('clusters/prod/gpu-operator/values.yaml');
    expect(dryRun.diff).toContain(
      '--- /dev/null\n+++ b/clusters/prod/gpu-operator/values.yaml',
    );
    expect(dryRun.body).toContain('Prepares cluster **prod**');
    expect(await remote.branchSha('gpu/bootstrap-prod')).toBeUndefined();

    const first = await bootstrap();
    expect(first).toMatchObject({ changed: true, updated: false });
    expect(first.url).toBe(`file://${remote.url}#gpu/bootstrap-prod`);
    expect(first.files).toEqual(dryRun.files);
    expect(first.body).toBe(dryRun.body);
    expect(await remote.branchSha('main')).toBe(mainBefore);
    const message = await remote.git([
      'log',
      '--format=%P%n%B',
      'main..gpu/bootstrap-prod',
    ]);
    expect(message.split('\n')[0]).toBe(mainBefore);
    expect(message).toContain(
      `GPU bootstrap for cluster prod\n\n${first.body}`,
    );
    expect(message).toContain('Gpu-Bootstrap: prod');

    await remote.git(['update-ref', 'refs/heads/main', first.commit!]);
    const again = await bootstrap();
    expect(again).toMatchObject({ changed: false, files: [] });
    expect(again.url).toBeUndefined();
  });

  it('refuses a bin-packing bootstrap whose profile names no patch version, naming the field; nothing is pushed', async () => {
    const cluster = resolveClusterProfile({
      name: 'prod',
      kubernetesVersion: '1.36',
    });
    await expect(bootstrap({ cluster, binPacking: true })).rejects.toThrow(
      /kubernetesVersion must name it with its patch/,
    );
    expect(await remote.branchSha('gpu/bootstrap-prod')).toBeUndefined();
  });
});
