import { execFileSync } from 'child_process';
import {
  mkdirSync,
  mkdtempSync,
  promises as fsPromises,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'fs';
import { tmpdir } from 'os';
import { dirname, join } from 'path';
import { findKustomizeBinary } from './binary';
import { buildKustomizationRoot, GIT_KEYED_MIN_FILES } from './buildRoot';
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

function gitIn(dir: string, ...args: string[]): void {
  execFileSync(
    'git',
    ['-c', 'user.name=test', '-c', 'user.email=test@example.invalid', ...args],
    { cwd: dir, stdio: 'pipe' },
  );
}

/**
 * A git checkout of the overlay over its base, everything committed; the
 * base holds enough other files for git to name its inputs.
 */
function committedOverlay(value: string): string {
  const dir = folder('gpu-build-git-');
  gitIn(dir, 'init', '--quiet', '--initial-branch=main');
  overlayOverBase(dir, value);
  write(
    dir,
    Object.fromEntries(
      Array.from({ length: GIT_KEYED_MIN_FILES }, (_, i) => [
        `base/notes/${i}.txt`,
        `note ${i}\n`,
      ]),
    ),
  );
  gitIn(dir, 'add', '-A');
  gitIn(dir, 'commit', '--quiet', '-m', 'overlay');
  return dir;
}

/** Files of `dir` this process read while `step` ran. */
async function filesReadIn(
  dir: string,
  step: () => Promise<unknown>,
): Promise<string[]> {
  const readFile = jest.spyOn(fsPromises, 'readFile');
  try {
    await step();
    return readFile.mock.calls
      .map(([file]) => String(file))
      .filter(file => file.startsWith(dir));
  } finally {
    readFile.mockRestore();
  }
}

describe('buildKustomizationRoot: remembered builds of a git checkout', () => {
  it('names a clean checkout’s inputs by their git blob ids, without reading them', async () => {
    const dir = committedOverlay('1');
    const cacheDir = folder('gpu-build-cache-');
    let built: unknown;
    const read = await filesReadIn(dir, async () => {
      built = await buildOverlay(dir, cacheDir);
    });
    expect(built).toEqual([{ replicas: '1' }]);
    // The graph reads the kustomization files; no other input is read.
    expect(read.filter(f => !f.endsWith('kustomization.yaml'))).toEqual([]);
  });

  it('builds again when a commit changes one file the root reads', async () => {
    const dir = committedOverlay('1');
    const cacheDir = folder('gpu-build-cache-');
    expect(await buildOverlay(dir, cacheDir)).toEqual([{ replicas: '1' }]);
    write(dir, { 'base/settings.yaml': configMap('2') });
    gitIn(dir, 'commit', '--quiet', '-am', 'two');
    expect(await buildOverlay(dir, cacheDir)).toEqual([{ replicas: '2' }]);
  });

  it('never lets the git index hide an uncommitted, untracked or ignored input', async () => {
    const dir = committedOverlay('1');
    const cacheDir = folder('gpu-build-cache-');
    expect(await buildOverlay(dir, cacheDir)).toEqual([{ replicas: '1' }]);

    write(dir, { 'base/settings.yaml': configMap('2') });
    expect(await buildOverlay(dir, cacheDir)).toEqual([{ replicas: '2' }]);

    gitIn(dir, 'checkout', '--', 'base/settings.yaml');
    write(dir, {
      '.gitignore': 'more.yaml\n',
      'base/kustomization.yaml': 'resources: [settings.yaml, more.yaml]\n',
    });
    gitIn(dir, 'commit', '--quiet', '-am', 'reads an ignored file');
    write(dir, {
      'base/more.yaml': configMap('3').replace('settings', 'more'),
    });
    expect(await buildOverlay(dir, cacheDir)).toEqual([
      { replicas: '3' },
      { replicas: '1' },
    ]);
    write(dir, {
      'base/more.yaml': configMap('4').replace('settings', 'more'),
    });
    expect(await buildOverlay(dir, cacheDir)).toEqual([
      { replicas: '4' },
      { replicas: '1' },
    ]);
  });

  it('does not take a build of the full tree for a sparse checkout that lacks an input', async () => {
    const full = committedOverlay('1');
    const cacheDir = folder('gpu-build-cache-');
    expect(await buildOverlay(full, cacheDir)).toEqual([{ replicas: '1' }]);
    const sparse = join(folder('gpu-build-sparse-'), 'checkout');
    gitIn(full, 'clone', '--quiet', '--sparse', full, sparse);
    gitIn(
      sparse,
      'sparse-checkout',
      'set',
      '--no-cone',
      '/*',
      '!/base/settings.yaml',
    );
    // Same commit, same blobs; but kustomize there cannot read settings.yaml.
    await expect(buildOverlay(sparse, cacheDir)).rejects.toThrow();
  });
});

describe('buildKustomizationRoot: builds under way', () => {
  it('runs one kustomize for two callers of the same inputs at once', async () => {
    const dir = folder('gpu-build-root-');
    overlayOverBase(dir, '5');
    // A kustomize that notes each start, then runs the real one.
    const bin = folder('gpu-build-bin-');
    const starts = join(bin, 'starts');
    const wrapper = join(bin, 'kustomize');
    writeFileSync(
      wrapper,
      `#!/bin/sh\necho start >> '${starts}'\nexec '${findKustomizeBinary({})}' "$@"\n`,
      { mode: 0o755 },
    );
    const graph = await readKustomizationGraph(dir);
    const options = { env: { ...process.env, KUSTOMIZE_BIN: wrapper } };
    const [first, second] = await Promise.all([
      buildKustomizationRoot(dir, graph, 'overlay', options),
      buildKustomizationRoot(dir, graph, 'overlay', options),
    ]);
    expect(first.objects).toEqual(second.objects);
    expect(first.objects.map(o => (o as { data?: unknown }).data)).toEqual([
      { replicas: '5' },
    ]);
    // Each caller gets its own copy.
    expect(first.objects[0]).not.toBe(second.objects[0]);
    expect(readFileSync(starts, 'utf8').trim().split('\n')).toHaveLength(1);
  });
});
