import path from 'node:path';
import {
  createBareRemote,
  type BareRemote,
} from '@gpu-gitops/plugin-gpu-node/testUtils';
import { makeWorkdir, requestYaml, runIn } from '../__testUtils__/runInTemp';
import { EMPTY_KUSTOMIZATION } from '../__testUtils__/symlinkRepo';

// Real git, real kustomize and child processes on a shared, busy CI machine:
// a generous ceiling that catches hangs, not a speed goal.
jest.setTimeout(120_000);

describe('gpu-gitops release', () => {
  let remote: BareRemote;
  let dir: string;
  beforeEach(async () => {
    remote = await createBareRemote({
      'clusters/default/gpu/kustomization.yaml': EMPTY_KUSTOMIZATION,
    });
    dir = makeWorkdir({
      'req.yaml': requestYaml(
        'model: t4\nsharing: time-slicing\nslicesPerGpu: 4\nreplicas: 3\nvramGiB: 4',
      ),
    });
  });
  afterEach(() => remote.cleanup());

  const repo = () => [
    '--repo',
    remote.url,
    '--cache-dir',
    path.join(dir, 'cache'),
  ];
  const merge = async (branch: string) => {
    await remote.git([
      'update-ref',
      'refs/heads/main',
      (await remote.branchSha(branch))!,
    ]);
  };

  it('releases a merged request by --name or --request, and says what it saves', async () => {
    expect(
      (await runIn(dir, ['pr', '--request', 'req.yaml', ...repo()])).code,
    ).toBe(0);
    await merge('gpu/ml-llm-inference');

    const dryRun = await runIn(dir, [
      'release',
      '--request',
      'req.yaml',
      ...repo(),
      '--dry-run',
    ]);
    expect(dryRun.code).toBe(0);
    expect(dryRun.stdout).toContain(
      '--- a/requests/ml/llm-inference.yaml\n+++ /dev/null',
    );
    expect(
      await remote.branchSha('gpu/release-ml-llm-inference'),
    ).toBeUndefined();

    const run = await runIn(dir, [
      'release',
      '--name',
      'ml/llm-inference',
      ...repo(),
      '--json',
    ]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const out = JSON.parse(run.stdout);
    expect(out.branch).toBe('gpu/release-ml-llm-inference');
    expect(await remote.branchSha(out.branch)).toBe(out.commit);
    expect(out.pools).toEqual([
      expect.objectContaining({ removed: true, releasedUnits: 3 }),
    ]);
    expect(out.savedUsdPerMonth).toBeGreaterThan(0);
    expect(out.savedUsdPerMonth).toBe(out.pools[0].usdPerMonthBefore);
    expect(out.files).toContain('requests/ml/llm-inference.yaml');
    expect(
      await remote.readFile(out.branch, 'requests/ml/llm-inference.yaml'),
    ).toBeUndefined();
  });

  it('a request not merged yet is exit 2 with the reason; a wrong flag is a usage error', async () => {
    expect(
      (await runIn(dir, ['pr', '--request', 'req.yaml', ...repo()])).code,
    ).toBe(0);
    const notMerged = await runIn(dir, [
      'release',
      '--name',
      'ml/llm-inference',
      ...repo(),
    ]);
    expect(notMerged.code).toBe(2);
    expect(notMerged.stderr).toContain('ml/llm-inference is not in main of');
    expect(notMerged.stderr).toContain(
      'its pull request (branch gpu/ml-llm-inference) is not merged yet',
    );

    for (const args of [
      ['release', ...repo()],
      ['release', '--name', 'ml/x', '--request', 'req.yaml', ...repo()],
      ['release', '--name', 'just-a-name', ...repo()],
    ]) {
      const run = await runIn(dir, args);
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(/--name|--request/);
    }
    expect(
      await remote.branchSha('gpu/release-ml-llm-inference'),
    ).toBeUndefined();
  });
});
