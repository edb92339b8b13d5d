import {
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'fs';
import { tmpdir } from 'os';
import { dirname, join } from 'path';
import { kustomizeBuild } from './build';
import { isKustomizeBuildError } from './errors';
import { foldersBuiltBy, readKustomizationGraph } from './roots';
import { kustomizeBuildWithoutHelmCharts } from './withoutHelmCharts';

const dirs: string[] = [];
afterAll(() => dirs.forEach(d => rmSync(d, { recursive: true, force: true })));

const operatorKustomization = `# The GPU Operator chart, inflated by Argo CD with Helm enabled.
helmCharts:
  - name: gpu-operator
    repo: https://helm.ngc.nvidia.com/nvidia
    version: v25.3.0
    releaseName: gpu-operator
    namespace: gpu-operator
resources: [namespace.yaml]
`;

function repo(): string {
  const dir = mkdtempSync(join(tmpdir(), 'gpu-kustomize-helm-'));
  dirs.push(dir);
  const files: Record<string, string> = {
    'clusters/prod/kustomization.yaml': 'resources: [gpu-operator, gpu]\n',
    'clusters/prod/gpu-operator/kustomization.yaml': operatorKustomization,
    'clusters/prod/gpu-operator/namespace.yaml':
      'apiVersion: v1\nkind: Namespace\nmetadata: { name: gpu-operator }\n',
    'clusters/prod/gpu/kustomization.yaml': 'resources: [pool.yaml]\n',
    'clusters/prod/gpu/pool.yaml':
      'apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata: { name: gpu-t4 }\n',
  };
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
  return dir;
}

describe('kustomizeBuildWithoutHelmCharts', () => {
  it('builds everything but the charts, which plain kustomize refuses without --enable-helm', async () => {
    const dir = repo();
    const plain = await kustomizeBuild(join(dir, 'clusters/prod')).catch(
      e => e,
    );
    expect(isKustomizeBuildError(plain)).toBe(true);
    expect(plain.detail).toContain('--enable-helm');

    const graph = await readKustomizationGraph(dir);
    expect(
      graph.folders.get('clusters/prod/gpu-operator')?.inflatesHelmCharts,
    ).toBe(true);
    expect(graph.folders.get('clusters/prod')?.inflatesHelmCharts).toBe(false);
    const objects = await kustomizeBuildWithoutHelmCharts(
      dir,
      'clusters/prod',
      foldersBuiltBy(graph, 'clusters/prod'),
    );
    expect(objects.map(o => `${o.kind}/${o.metadata.name}`)).toEqual([
      'Namespace/gpu-operator',
      'NodePool/gpu-t4',
    ]);
    // The repository itself is left as it was.
    expect(
      readFileSync(
        join(dir, 'clusters/prod/gpu-operator/kustomization.yaml'),
        'utf8',
      ),
    ).toBe(operatorKustomization);
  });
});
