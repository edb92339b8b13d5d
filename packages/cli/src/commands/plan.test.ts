import { makeWorkdir, requestYaml, runIn } from '../__testUtils__/runInTemp';

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
