import { promises as fs, readdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { isGpuInputError } from '@gpu-gitops/plugin-gpu-common';
import { BareRemote, createBareRemote } from '../git/__testUtils__/bareRemote';
import {
  publishGpuRequest,
  PublishGpuRequestOptions,
} from './publishGpuRequest';
import {
  catalog,
  cluster,
  gpuRequest,
  seedFiles,
} from './__testUtils__/fixtures';

describe('publishGpuRequest', () => {
  let remote: BareRemote;
  let cacheDir: string;
  let lines: string[];

  beforeEach(async () => {
    remote = await createBareRemote(seedFiles);
    cacheDir = await fs.mkdtemp(path.join(os.tmpdir(), 'gpu-gitops-publish-'));
    lines = [];
  });
  afterEach(async () => {
    await remote.cleanup();
    await fs.rm(cacheDir, { recursive: true, force: true });
  });

  const options = (
    more: Partial<PublishGpuRequestOptions> = {},
  ): PublishGpuRequestOptions => ({
    request: gpuRequest('llm'),
    cluster,
    catalog,
    repoUrl: remote.url,
    cacheDir,
    author: { name: 'GPU Bot', email: 'gpu-bot@example.com' },
    logger: {
      info: m => lines.push(`info ${m}`),
      warn: m => lines.push(`warn ${m}`),
    },
    ...more,
  });

  it('pushes the request branch and returns the local PR', async () => {
    const result = await publishGpuRequest(options());
    expect(result.branch).toBe('gpu/ml-llm');
    expect(result.changed).toBe(true);
    expect(result.updated).toBe(false);
    expect(result.url).toBe(`file://${remote.url}#gpu/ml-llm`);
    expect(await remote.branchSha('gpu/ml-llm')).toBe(result.commit);
    expect(result.files).toEqual(
      expect.arrayContaining([
        'clusters/prod/gpu/kustomization.yaml',
        `clusters/prod/gpu/nodepools/${result.plan.pool.name}.yaml`,
      ]),
    );
    expect(result.files.some(f => f.startsWith('apps/ml/llm/'))).toBe(true);
    for (const file of result.files) {
      expect(await remote.readFile('gpu/ml-llm', file)).toBeDefined();
    }
    // Unrelated content survives; the commit sits on main with our message.
    expect(
      await remote.readFile('gpu/ml-llm', 'apps/web/frontend/deployment.yaml'),
    ).toBe(seedFiles['apps/web/frontend/deployment.yaml']);
    const message = await remote.git([
      'log',
      '-1',
      '--format=%B',
      'gpu/ml-llm',
    ]);
    expect(message).toBe(
      `${result.commitMessage.trim()}\n\nGpu-Request: ml/llm\n\n`,
    );
    expect(result.title).toMatch(
      /^GPU: ml\/llm — [0-9.]+ GPUs? — 2 time-slices of (a T4|T4s)$/,
    );
    expect(result.body).toContain('~38 % throughput loss');
    expect(result.body).toContain(`\`${result.plan.pool.name}\``);
    // Stage progress with durations.
    for (const stage of [
      'Read repository state',
      'Plan',
      'Build manifests',
      'Apply plan to the repository',
      'Commit and push gpu/ml-llm',
      'Open or update the local pull request',
    ]) {
      expect(
        lines.some(l =>
          new RegExp(
            `^info ${stage.replace(/[/.]/g, '\\$&')}: done in \\d+ ms$`,
          ).test(l),
        ),
      ).toBe(true);
    }
    expect(result.stages.map(s => s.stage)).toContain('Plan');
    expect(result.stages.map(s => s.stage)).toContain('Verify with kustomize');
  });

  it('dry-run returns the diff and pushes nothing', async () => {
    const result = await publishGpuRequest(options({ dryRun: true }));
    expect(result.dryRun).toBe(true);
    expect(result.changed).toBe(true);
    expect(result.url).toBeUndefined();
    expect(result.commit).toBeUndefined();
    expect(result.diff).toContain('+++ b/clusters/prod/gpu/kustomization.yaml');
    expect(result.diff).toContain(`kind: NodePool`);
    expect(await remote.branchSha('gpu/ml-llm')).toBeUndefined();
  });

  it('a dry run plans and verifies under the clone lock: no other run resets the checkout while it reads', async () => {
    const lockedAt: Record<string, boolean> = {};
    const cacheLocked = () =>
      readdirSync(cacheDir).some(name => name.endsWith('.lock'));
    const result = await publishGpuRequest(
      options({
        dryRun: true,
        logger: {
          info: m => {
            if (m.endsWith('…')) lockedAt[m.slice(0, -1)] = cacheLocked();
          },
          warn: () => {},
        },
      }),
    );
    expect(result.changed).toBe(true);
    expect(lockedAt).toMatchObject({
      'Read repository state': true,
      Plan: true,
      'Verify with kustomize': true,
    });
    expect(cacheLocked()).toBe(false);
  });

  it('renders the MIG layout and reconfiguration checklist for a real MIG plan', async () => {
    const result = await publishGpuRequest(
      options({
        dryRun: true,
        request: gpuRequest('trainer', {
          model: 'a100-40gb',
          sharing: 'mig',
          replicas: 3,
          vramGiB: 9,
        }),
      }),
    );
    expect(result.plan.sharing.mode).toBe('mig');
    expect(result.body).toContain('### MIG layout (each GPU, by memory slice)');
    expect(result.body).toMatch(/\n\[[^\n]*\|[^\n]*\]\n/);
    expect(result.body).toContain(
      `nvidia.com/mig.config=${result.plan.sharing.migConfigName}`,
    );
    expect(result.body).toContain('nvidia.com/mig.config.state=success');
    expect(result.files).toContain('clusters/prod/gpu/mig/config.yaml');
  });

  it('re-running the same request updates the existing branch', async () => {
    const first = await publishGpuRequest(options());
    const same = await publishGpuRequest(options());
    expect(same).toMatchObject({
      changed: true,
      updated: true,
      commit: first.commit,
    });
    const more = await publishGpuRequest(
      options({ request: gpuRequest('llm', { replicas: 3 }) }),
    );
    expect(more.updated).toBe(true);
    expect(more.commit).not.toBe(first.commit);
    expect(await remote.branchSha('gpu/ml-llm')).toBe(more.commit);
    expect(
      (await remote.git(['rev-list', '--count', 'main..gpu/ml-llm'])).trim(),
    ).toBe('1');
  });

  it('returns changed=false without branch or PR when main already holds the request', async () => {
    const first = await publishGpuRequest(options());
    await remote.git(['update-ref', 'refs/heads/main', first.commit!]);
    await remote.git(['update-ref', '-d', 'refs/heads/gpu/ml-llm']);
    const again = await publishGpuRequest(options());
    expect(again).toMatchObject({ changed: false, files: [] });
    expect(again.url).toBeUndefined();
    expect(await remote.branchSha('gpu/ml-llm')).toBeUndefined();
    expect(lines).toContain(
      'info the repository already holds ml/llm: no branch, no pull request',
    );
  });

  it('rejects bad input with field and rule, and pushes nothing', async () => {
    const request = gpuRequest('llm');
    (request.spec.gpu as any).replicas = 0;
    const error = await publishGpuRequest(options({ request })).catch(e => e);
    expect(isGpuInputError(error)).toBe(true);
    expect(error.issues[0].path).toBe('spec.gpu.replicas');
    expect(await remote.branchSha('gpu/ml-llm')).toBeUndefined();
    expect(await fs.readdir(cacheDir)).toEqual([]);
  });
});
