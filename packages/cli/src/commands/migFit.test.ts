import { makeWorkdir, runIn } from '../__testUtils__/runInTemp';

describe('gpu-gitops mig fit', () => {
  const dir = makeWorkdir();

  it('places 3g.20gb + 2 x 2g.10gb on an A100-40GB', async () => {
    const run = await runIn(dir, [
      'mig',
      'fit',
      '--gpu',
      'a100-40gb',
      '--profiles',
      '3g.20gb=1,2g.10gb=2',
      '--json',
    ]);
    expect(run.code).toBe(0);
    const result = JSON.parse(run.stdout);
    expect(result.fits).toBe(true);
    expect(
      result.placement
        .map(
          (p: { profile: string; start: number }) => `${p.profile}@${p.start}`,
        )
        .sort(),
    ).toEqual(['2g.10gb@0', '2g.10gb@2', '3g.20gb@4']);
  });

  it('explains why 4g.20gb + 2 x 2g.10gb does not fit', async () => {
    const run = await runIn(dir, [
      'mig',
      'fit',
      '--gpu',
      'a100-40gb',
      '--profiles',
      '4g.20gb=1,2g.10gb=2',
      '--json',
    ]);
    expect(run.code).toBe(0);
    const result = JSON.parse(run.stdout);
    expect(result.fits).toBe(false);
    expect(result.reason).toMatch(/compute slices|start/);
  });

  it('rejects an unknown GPU and bad profile syntax with exit 2', async () => {
    const unknown = await runIn(dir, [
      'mig',
      'fit',
      '--gpu',
      'a999',
      '--profiles',
      '1g.5gb=1',
    ]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('--gpu');
    const syntax = await runIn(dir, [
      'mig',
      'fit',
      '--gpu',
      'a100-40gb',
      '--profiles',
      '3g.20gb:1',
    ]);
    expect(syntax.code).toBe(2);
    expect(syntax.stderr).toContain('--profiles');
  });
});

describe('gpu-gitops mig fit on a GPU without MIG', () => {
  const dir = makeWorkdir();

  it('exits 2 and says why, naming --gpu and the GPUs that have MIG', async () => {
    const run = await runIn(dir, [
      'mig',
      'fit',
      '--gpu',
      't4',
      '--profiles',
      '1g.5gb=1',
      '--json',
    ]);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain(
      '--gpu: t4 (NVIDIA Tesla T4) does not support MIG; GPUs with MIG: ',
    );
    expect(run.stderr).toContain('a100-40gb');
    expect(run.stderr).toContain('[mig-unsupported]');
  });
});
