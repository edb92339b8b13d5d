import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import { dirname, join } from 'path';
import { buildKustomizationRoot } from './buildRoot';
import { readKustomizationGraph } from './roots';

const dirs: string[] = [];
afterAll(() => dirs.forEach(d => rmSync(d, { recursive: true, force: true })));

function folder(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(dir);
  return dir;
}

function write(dir: string, files: Record<string, string>): void {
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
}

const configMap = (value: string) =>
  `apiVersion: v1\nkind: ConfigMap\nmetadata: { name: settings, namespace: ml }\ndata: { replicas: "${value}" }\n`;

/** A root that reads a base folder: the overlay's build depends on a file it does not hold. */
function overlayOverBase(dir: string, value: string): void {
  write(dir, {
    'overlay/kustomization.yaml': 'resources: [../base]\n',
    'base/kustomization.yaml': 'resources: [settings.yaml]\n',
    'base/settings.yaml': configMap(value),
  });
}

async function buildOverlay(dir: string, cacheDir: string) {
  const graph = await readKustomizationGraph(dir);
  const { objects } = await buildKustomizationRoot(dir, graph, 'overlay', {
    cacheDir,
  });
  return objects.map(o => (o as { data?: unknown }).data);
}

describe('buildKustomizationRoot: remembered builds', () => {
  it('builds again when one file of a folder the root reads changes', async () => {
    const dir = folder('gpu-build-root-');
    const cacheDir = folder('gpu-build-cache-');
    overlayOverBase(dir, '1');
    expect(await buildOverlay(dir, cacheDir)).toEqual([{ replicas: '1' }]);
    expect(readdirSync(cacheDir).filter(f => f.endsWith('.json'))).toHaveLength(
      1,
    );

    write(dir, { 'base/settings.yaml': configMap('2') });
    expect(await buildOverlay(dir, cacheDir)).toEqual([{ replicas: '2' }]);

    // A file added to a folder the root reads is an input too.
    write(dir, {
      'base/kustomization.yaml': 'resources: [settings.yaml, more.yaml]\n',
      'base/more.yaml': configMap('3').replace('settings', 'more'),
    });
    expect(await buildOverlay(dir, cacheDir)).toEqual([
      { replicas: '3' },
      { replicas: '2' },
    ]);
  });

  it('reuses a saved build of the same inputs in another checkout', async () => {
    const cacheDir = folder('gpu-build-cache-');
    const first = folder('gpu-build-root-');
    overlayOverBase(first, '7');
    expect(await buildOverlay(first, cacheDir)).toEqual([{ replicas: '7' }]);
    const second = folder('gpu-build-root-');
    overlayOverBase(second, '7');
    expect(await buildOverlay(second, cacheDir)).toEqual([{ replicas: '7' }]);
    expect(readdirSync(cacheDir).filter(f => f.endsWith('.json'))).toHaveLength(
      1,
    );
  });
});
