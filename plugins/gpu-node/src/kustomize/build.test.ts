import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'fs';
import { tmpdir } from 'os';
import { dirname, join } from 'path';
import { kustomizeBuild, kustomizeErrorDetail } from './build';
import { runBounded } from '../runBounded';
import { KUSTOMIZE_BUILDS_IN_FLIGHT } from './buildsInFlight';
import { isKustomizeBuildError, isKustomizeNotFoundError } from './errors';

const dirs: string[] = [];
afterAll(() => dirs.forEach(d => rmSync(d, { recursive: true, force: true })));

function tree(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'gpu-kustomize-build-'));
  dirs.push(dir);
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
  return dir;
}

async function failure(promise: Promise<unknown>): Promise<Error> {
  const error = await promise.then(
    () => undefined,
    e => e as Error,
  );
  if (!error) throw new Error('expected the build to fail');
  return error;
}

const gpuFolder = {
  'kustomization.yaml': [
    'resources: [pool.yaml]',
    'generatorOptions: { disableNameSuffixHash: true }',
    'configMapGenerator:',
    '  - name: device-plugin-config',
    '    namespace: gpu-operator',
    '    files: [ts-4=device-plugin/ts-4.yaml]',
    '',
  ].join('\n'),
  'pool.yaml': [
    'apiVersion: karpenter.sh/v1',
    'kind: NodePool',
    'metadata: { name: gpu-t4-ts4 }',
    'spec: { limits: { nvidia.com/gpu: "2" } }',
    '---',
    'apiVersion: karpenter.sh/v1alpha1',
    'kind: NodeOverlay',
    'metadata: { name: gpu-t4-ts4-1gpu }',
    '',
  ].join('\n'),
  'device-plugin/ts-4.yaml': 'version: v1\n',
};

describe('kustomizeBuild', () => {
  it('returns every object the real kustomize builds, generated ones included', async () => {
    const objects = await kustomizeBuild(tree(gpuFolder));
    expect(objects.map(o => `${o.kind}/${o.metadata.name}`)).toEqual([
      'ConfigMap/device-plugin-config',
      'NodePool/gpu-t4-ts4',
      'NodeOverlay/gpu-t4-ts4-1gpu',
    ]);
    expect(objects[0].data).toEqual({ 'ts-4': 'version: v1\n' });
    expect(objects[0].metadata.namespace).toBe('gpu-operator');
  });

  it("fails with kustomize's own message, paths relative to the built folder", async () => {
    const { ['device-plugin/ts-4.yaml']: _gone, ...files } = gpuFolder;
    const dir = tree(files);
    const error = await failure(kustomizeBuild(dir));
    expect(isKustomizeBuildError(error)).toBe(true);
    const detail = (error as unknown as { detail: string }).detail;
    expect(detail).toContain('device-plugin/ts-4.yaml');
    expect(detail).not.toContain(dir);
    expect(detail).not.toMatch(/^Error:/);
  });

  it('shows the paths of the error relative to another folder when asked', async () => {
    const { ['device-plugin/ts-4.yaml']: _gone, ...files } = gpuFolder;
    const repo = tree(
      Object.fromEntries(
        Object.entries(files).map(([path, text]) => [
          `clusters/dev/${path}`,
          text,
        ]),
      ),
    );
    const error = await failure(
      kustomizeBuild(join(repo, 'clusters/dev'), { pathsRelativeTo: repo }),
    );
    expect((error as unknown as { detail: string }).detail).toContain(
      'clusters/dev/device-plugin/ts-4.yaml',
    );
  });

  it('kills a kustomize that does not finish in time', async () => {
    const dir = tree({ 'kustomization.yaml': 'resources: []\n' });
    const slow = join(dir, 'slow-kustomize');
    writeFileSync(slow, '#!/bin/sh\nsleep 30\n');
    chmodSync(slow, 0o755);
    const error = await failure(
      kustomizeBuild(dir, { timeoutMs: 200, env: { KUSTOMIZE_BIN: slow } }),
    );
    expect(isKustomizeBuildError(error)).toBe(true);
    expect((error as unknown as { detail: string }).detail).toBe(
      'kustomize build did not finish within 200 ms',
    );
  });

  it('runs no more kustomize processes at once than the process-wide limit, however many runs build', async () => {
    const dir = tree({ 'kustomization.yaml': 'resources: []\n' });
    // Each process notes how many are running (marker files) as it starts.
    const counting = join(dir, 'counting-kustomize');
    writeFileSync(
      counting,
      [
        '#!/bin/sh',
        'here=$(dirname "$0")',
        'touch "$here/running.$$"',
        'ls "$here" | grep -c "^running\\." >> "$here/in-flight.log"',
        'sleep 0.5',
        'rm "$here/running.$$"',
        "printf 'apiVersion: v1\\nkind: ConfigMap\\nmetadata:\\n  name: c\\n'",
        '',
      ].join('\n'),
    );
    chmodSync(counting, 0o755);
    const build = () =>
      kustomizeBuild(dir, { env: { KUSTOMIZE_BIN: counting } });
    // Three pull requests at once, each with its own bound of builds.
    const runs = Array.from({ length: 3 }, () =>
      runBounded(
        Array.from({ length: KUSTOMIZE_BUILDS_IN_FLIGHT }, () => build),
        KUSTOMIZE_BUILDS_IN_FLIGHT,
      ),
    );
    const built = (await Promise.all(runs)).flat();
    expect(built).toHaveLength(3 * KUSTOMIZE_BUILDS_IN_FLIGHT);
    expect(built.every(objects => objects[0].kind === 'ConfigMap')).toBe(true);
    const inFlight = readFileSync(join(dir, 'in-flight.log'), 'utf8')
      .trim()
      .split('\n')
      .map(Number);
    expect(inFlight).toHaveLength(3 * KUSTOMIZE_BUILDS_IN_FLIGHT);
    expect(Math.max(...inFlight)).toBeLessThanOrEqual(
      KUSTOMIZE_BUILDS_IN_FLIGHT,
    );
  });

  it('says kustomize is missing instead of building nothing', async () => {
    const dir = tree({ 'kustomization.yaml': 'resources: []\n' });
    const error = await failure(
      kustomizeBuild(dir, { env: { KUSTOMIZE_BIN: join(dir, 'nothing') } }),
    );
    expect(isKustomizeNotFoundError(error)).toBe(true);
  });
});

describe('kustomizeErrorDetail', () => {
  it('keeps the whole error on one line, cause included, without the prefix and the usage text', () => {
    const stderr = [
      'Error: trouble configuring builtin HelmChartInflationGenerator with config: `',
      'name: gpu-operator',
      '`: must specify --enable-helm',
      '',
    ].join('\n');
    expect(kustomizeErrorDetail(stderr, '/repo')).toBe(
      'trouble configuring builtin HelmChartInflationGenerator with config: ` name: gpu-operator `: must specify --enable-helm',
    );
  });

  it('drops the usage text and shows paths relative to the folder', () => {
    const stderr = [
      'Error: accumulating resources: /repo/x/a: no such file',
      'Usage:',
      '  kustomize build DIR [flags]',
      '',
    ].join('\n');
    expect(kustomizeErrorDetail(stderr, '/repo/x')).toBe(
      'accumulating resources: a: no such file',
    );
  });
});
