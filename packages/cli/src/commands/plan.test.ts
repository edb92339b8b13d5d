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

const modes: Record<string, string> = {
  exclusive: 'model: t4\nsharing: exclusive\nreplicas: 2\nvramGiB: 12',
  'time-slicing': 'model: t4\nsharing: time-slicing\nreplicas: 8\nvramGiB: 4',
  mps: 'model: l4\nsharing: mps\nreplicas: 6\nvramGiB: 5',
  mig: 'model: a100-40gb\nsharing: mig\nreplicas: 4\nvramGiB: 9',
  dra: 'model: l4\nsharing: dra\nreplicas: 2\nvramGiB: 8',
};

describe('gpu-gitops plan', () => {
  it.each(Object.entries(modes))(
    'prints the plan as JSON with the documented fields (%s)',
    async (mode, gpu) => {
      // MPS needs a plugin MIG strategy other than the default "mixed".
      const dir = makeWorkdir({
        'req.yaml': requestYaml(gpu),
        'cluster.yaml':
          mode === 'mps' ? 'migStrategy: single\n' : 'name: default\n',
      });
      const run = await runIn(dir, [
        'plan',
        '--request',
        'req.yaml',
        '--cluster',
        'cluster.yaml',
        '--json',
      ]);
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      const json = JSON.parse(run.stdout);
      expect(json.sharing.mode).toBe(mode);
      expect(json.pool.name).toMatch(/^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/);
      expect(json.pool.instanceTypes.length).toBeGreaterThan(0);
      expect(json.pool.reused).toBe(false);
      expect(typeof json.resourceName).toBe('string');
      expect(typeof json.perReplica.vramGuaranteed).toBe('boolean');
      expect(json.nodes.expected).toBeGreaterThan(0);
      expect(json.cost.usdPerMonth).toBeGreaterThan(0);
      expect(Array.isArray(json.warnings)).toBe(true);
    },
  );

  it('fills the mode-specific fields', async () => {
    const dir = makeWorkdir({
      'ts.yaml': requestYaml(modes['time-slicing']),
      'mig.yaml': requestYaml(modes.mig),
    });
    const ts = JSON.parse(
      (await runIn(dir, ['plan', '--request', 'ts.yaml', '--json'])).stdout,
    );
    // A T4 has 15 GiB usable: 4 GiB per replica gives 3 slices per GPU.
    expect(ts.sharing.slicesPerGpu).toBe(3);
    expect(ts.sharing.deviceConfigName).toMatch(/^ts-3/);
    expect(ts.resourceName).toBe('nvidia.com/gpu.shared');
    expect(ts.perReplica.vramGuaranteed).toBe(false);

    const mig = JSON.parse(
      (await runIn(dir, ['plan', '--request', 'mig.yaml', '--json'])).stdout,
    );
    // 9 GiB fits the 2-memory-slice 1g.10gb profile (the smallest that fits).
    expect(mig.sharing.migProfile).toBe('1g.10gb');
    expect(mig.sharing.migConfigName).toBe('all-1g.10gb');
    expect(mig.resourceName).toBe('nvidia.com/mig-1g.10gb');
    expect(mig.perReplica.vramGuaranteed).toBe(true);
  });

  it('prints a readable summary without --json', async () => {
    const dir = makeWorkdir({ 'req.yaml': requestYaml(modes['time-slicing']) });
    const run = await runIn(dir, ['plan', '--request', 'req.yaml']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('GPU plan for ml/llm-inference');
    expect(run.stdout).toContain('NOT guaranteed');
  });

  it('applies a cluster profile file', async () => {
    const dir = makeWorkdir({
      'req.yaml': requestYaml(modes.mig),
      'cluster.yaml': 'name: prod-eu\nmigStrategy: single\n',
    });
    const run = await runIn(dir, [
      'plan',
      '--request',
      'req.yaml',
      '--cluster',
      'cluster.yaml',
      '--json',
    ]);
    expect(run.code).toBe(0);
    const json = JSON.parse(run.stdout);
    expect(json.cluster).toBe('prod-eu');
    expect(json.resourceName).toBe('nvidia.com/gpu');
  });
});

describe('gpu-gitops plan --repo', () => {
  let remote: BareRemote;
  let dir: string;
  const timeSliced =
    'model: t4\nsharing: time-slicing\nslicesPerGpu: 4\nreplicas: 3\nvramGiB: 4';
  beforeEach(async () => {
    remote = await createBareRemote({
      'clusters/default/gpu/kustomization.yaml': EMPTY_KUSTOMIZATION,
    });
    dir = makeWorkdir({
      'first.yaml': requestYaml(timeSliced, { name: 'first' }),
      'second.yaml': requestYaml(timeSliced, { name: 'second' }),
    });
  });
  afterEach(() => remote.cleanup());

  const repo = () => [
    '--repo',
    remote.url,
    '--cache-dir',
    path.join(dir, 'cache'),
  ];

  /** The first request's pull request, merged: its pool is in the repository. */
  async function mergeFirst(): Promise<string> {
    const pr = await runIn(dir, [
      'pr',
      '--request',
      'first.yaml',
      ...repo(),
      '--json',
    ]);
    expect(pr.code).toBe(0);
    await remote.git([
      'update-ref',
      'refs/heads/main',
      (await remote.branchSha('gpu/ml-first'))!,
    ]);
    return JSON.parse(pr.stdout).files.find((f: string) =>
      f.startsWith('clusters/default/gpu/nodepools/'),
    );
  }

  it("plans on the repository's pools and ledgers, as pr --dry-run does", async () => {
    const poolFile = await mergeFirst();
    const poolName = path.basename(poolFile, '.yaml');

    const run = await runIn(dir, [
      'plan',
      '--request',
      'second.yaml',
      ...repo(),
      '--json',
    ]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const planned = JSON.parse(run.stdout);
    expect(planned.pool).toMatchObject({ name: poolName, reused: true });

    const dryRun = await runIn(dir, [
      'pr',
      '--request',
      'second.yaml',
      ...repo(),
      '--dry-run',
      '--json',
    ]);
    const pr = JSON.parse(dryRun.stdout);
    // The pull request's pool file is the pool the plan named, its ledger
    // holding both requests.
    expect(pr.files).toContain(poolFile);
    expect(pr.diff).toMatch(
      /^\+\s+gpu\.backstage\.io\/requests: ml\/first=3, ml\/second=3$/m,
    );
  });

  it('says in text that it grows the full pool, not that the cluster has none', async () => {
    const poolName = path.basename(await mergeFirst(), '.yaml');
    const run = await runIn(dir, [
      'plan',
      '--request',
      'second.yaml',
      ...repo(),
    ]);
    expect(run.code).toBe(0);
    // The first request holds 3 of the node's 4 slices: 3 more need a node.
    expect(run.stdout).toContain(`Pool: ${poolName} (reused)`);
    expect(run.stdout).toContain(
      `pool ${poolName} goes from 1 node to 2 nodes`,
    );
    expect(run.stdout).toContain('attributed to 2 requests');
    expect(run.stdout).not.toContain('the cluster has no pool of this GPU yet');
  });

  it('refuses a repository URL with credentials before reading the request', async () => {
    const run = await runIn(dir, [
      'plan',
      '--request',
      'missing.yaml',
      '--repo',
      'https://x-access-token:secret-token-123@github.com/o/r.git',
    ]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/--repo: .*\[url-credentials\]/);
    expect(run.stderr).not.toMatch(/missing\.yaml|secret-token-123/);
  });
});
