import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import { dirname, join } from 'path';
import { MemoryRepoTree } from '../repo/tree';
import {
  findKustomizationRoots,
  foldersBuiltBy,
  readKustomizationGraph,
} from './roots';

const dirs: string[] = [];
afterAll(() => dirs.forEach(d => rmSync(d, { recursive: true, force: true })));

function onDisk(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'gpu-kustomize-roots-'));
  dirs.push(dir);
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
  return dir;
}

const repo: Record<string, string> = {
  // A cluster folder that pulls in its GPU folder.
  'clusters/dev/kustomization.yaml':
    'resources:\n  - karpenter/pool.yaml\n  - gpu/\n',
  'clusters/dev/gpu/kustomization.yaml': 'resources: [nodepools/a.yaml]\n',
  // An overlay on a base through the legacy `bases`, and a component.
  'overlays/prod/kustomization.yml':
    'bases: [../../base]\ncomponents: [../../components/gpu]\nresources:\n  - https://github.com/example/remote//deploy?ref=v1\n',
  'base/Kustomization': 'resources: [deployment.yaml]\n',
  'components/gpu/kustomization.yaml': 'kind: Component\n',
  // Argo CD builds each app folder on its own; nothing references them.
  'apps/ml/chat/kustomization.yaml': 'resources: [deployment.yaml]\n',
  'apps/kustomization.yaml': '',
  // A reference that leaves the tree, and a folder with no kustomization.
  'apps/web/kustomization.yaml': 'resources: [../../../outside, plain]\n',
  'apps/web/plain/deployment.yaml': 'kind: Deployment\n',
  // Not a kustomization, whatever it says.
  'docs/kustomization.txt': 'resources: [../apps/ml/chat]\n',
};

describe('findKustomizationRoots', () => {
  it('lists the folders no kustomization references, on disk and in memory alike', async () => {
    const expected = [
      'apps',
      'apps/ml/chat',
      'apps/web',
      'clusters/dev',
      'overlays/prod',
    ];
    expect(await findKustomizationRoots(onDisk(repo))).toEqual(expected);
    expect(await findKustomizationRoots(new MemoryRepoTree(repo))).toEqual(
      expected,
    );
  });

  it("names the top folder '.' and resolves references relative to the referencing folder", async () => {
    const roots = await findKustomizationRoots(
      new MemoryRepoTree({
        'kustomization.yaml': 'resources: [apps]\n',
        'apps/kustomization.yaml': 'resources: [./ml/../ml/chat]\n',
        'apps/ml/chat/kustomization.yaml': 'resources: []\n',
        'other/kustomization.yaml': 'resources: [chat]\n',
      }),
    );
    expect(roots).toEqual(['.', 'other']);
  });

  it('still builds kustomizations caught in a reference cycle (kustomize reports the cycle)', async () => {
    const roots = await findKustomizationRoots(
      new MemoryRepoTree({
        'a/kustomization.yaml': 'resources: [../b]\n',
        'b/kustomization.yaml': 'resources: [../a]\n',
      }),
    );
    expect(roots).toEqual(['a']);
  });

  it('knows which kustomization folders a root builds from', async () => {
    const graph = await readKustomizationGraph(new MemoryRepoTree(repo));
    expect(foldersBuiltBy(graph, 'overlays/prod')).toEqual([
      'base',
      'components/gpu',
      'overlays/prod',
    ]);
    expect(graph.folders.get('base')?.file).toBe('base/Kustomization');
  });
});
