import { execFileSync } from 'child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'fs';
import { promises as fsPromises } from 'fs';
import { tmpdir } from 'os';
import { dirname, join } from 'path';
import { readCheckoutListing } from '../git/checkoutListing';
import { findKustomizeBinary } from './binary';
import { kustomizeBuild, type BuiltObject } from './build';
import {
  buildPlainRootInChunks,
  chunksByName,
  plainRoot,
} from './chunkedBuild';
import { isKustomizeBuildError } from './errors';

// Real kustomize builds on a shared two-core machine.
jest.setTimeout(120_000);

const configMap = (name: string, data = 'a') =>
  `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\ndata:\n  key: ${data}\n`;

const pool = (name: string) =>
  `apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata:\n  name: ${name}\nspec:\n  limits:\n    nvidia.com/gpu: '4'\n`;

/** The root `clusters/dev/gpu` listing `files` (path under the root -> text), plain unless `more` adds fields. */
function writeRoot(
  dir: string,
  files: Record<string, string>,
  more = '',
): string {
  const root = join(dir, 'clusters/dev/gpu');
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, file)), { recursive: true });
    writeFileSync(join(root, file), text);
  }
  const resources = Object.keys(files)
    .map(f => `  - ${f}\n`)
    .join('');
  writeFileSync(
    join(root, 'kustomization.yaml'),
    `apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\n${more}resources:\n${resources}`,
  );
  return root;
}

const byId = (objects: BuiltObject[]) =>
  [...objects].sort((a, b) =>
    `${a.kind}/${a.metadata.name}`.localeCompare(
      `${b.kind}/${b.metadata.name}`,
    ),
  );

/** A kustomize that notes each build, then runs the real one. */
function countingKustomize(dir: string): { bin: string; builds: () => number } {
  const log = join(dir, 'builds');
  const bin = join(dir, 'kustomize');
  writeFileSync(
    bin,
    `#!/bin/sh\necho "$2" >> '${log}'\nexec '${findKustomizeBinary({})}' "$@"\n`,
    { mode: 0o755 },
  );
  return {
    bin,
    builds: () =>
      existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n').length : 0,
  };
}

/** The resource entries of a root's `files`, as the chunks take them. */
const fileEntries = (files: Record<string, string>) =>
  Object.keys(files).map(entry => ({ entry }));

describe('buildPlainRootInChunks', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'gpu-chunked-build-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const files = {
    'nodepools/a.yaml': pool('a'),
    'nodepools/b.yaml': pool('b'),
    'c.yaml': `${configMap('c')}---\n${configMap('d')}`,
    'nodepools/e.yaml': pool('e'),
    'f.yaml': configMap('f'),
  };

  it('builds the objects the whole root builds, a chunk at a time', async () => {
    const root = writeRoot(dir, files);
    const entries = await plainRoot(root);
    expect(entries?.resources).toEqual(Object.keys(files));
    const chunked = await buildPlainRootInChunks(
      dir,
      'clusters/dev/gpu',
      entries!,
      {},
      { chunkSize: 2 },
    );
    const whole = await kustomizeBuild(root);
    expect(byId(chunked)).toEqual(byId(whole));
    expect(chunked).toHaveLength(6);
  });

  it('builds stable-named ConfigMap generators as a chunk of their own, as the whole root builds them', async () => {
    const generator =
      'configMapGenerator:\n  - name: device-plugin-configs\n    namespace: gpu-operator\n    files: [ts-2=configs/ts-2.yaml]\n    options: { disableNameSuffixHash: true }\n';
    const root = writeRoot(dir, files, generator);
    writeFileSync(join(root, 'configs-ts-2.yaml'), 'unused\n');
    mkdirSync(join(root, 'configs'));
    writeFileSync(join(root, 'configs/ts-2.yaml'), 'version: v1\n');
    const plain = (await plainRoot(root))!;
    expect(plain.generatorFiles).toEqual(['configs/ts-2.yaml']);
    const chunked = await buildPlainRootInChunks(
      dir,
      'clusters/dev/gpu',
      plain,
      {},
      { chunkSize: 2 },
    );
    expect(byId(chunked)).toEqual(byId(await kustomizeBuild(root)));
    expect(chunked).toHaveLength(7);
  });

  it('refuses two objects of one id in different chunks, as the whole build does', async () => {
    const root = writeRoot(dir, { ...files, 'g.yaml': pool('a') });
    const whole = await kustomizeBuild(root).catch(error => error);
    expect(isKustomizeBuildError(whole)).toBe(true);
    const chunked = await buildPlainRootInChunks(
      dir,
      'clusters/dev/gpu',
      (await plainRoot(root))!,
      {},
      { chunkSize: 2 },
    ).catch(error => error);
    expect(isKustomizeBuildError(chunked)).toBe(true);
    expect(chunked.detail).toContain('already registered id: NodePool a');
  });

  it('reports the error of a file that does not build in the words of the whole build', async () => {
    const root = writeRoot(dir, { ...files, 'broken.yaml': 'kind: [\n' });
    const chunked = await buildPlainRootInChunks(
      dir,
      'clusters/dev/gpu',
      (await plainRoot(root))!,
      {},
      { chunkSize: 2 },
    ).catch(error => error);
    const whole = await kustomizeBuild(root, { pathsRelativeTo: dir }).catch(
      error => error,
    );
    expect(isKustomizeBuildError(chunked)).toBe(true);
    expect(chunked.detail).toContain('broken.yaml');
    expect(chunked.detail).toBe(whole.detail);
  });

  it('builds again only the chunk whose file changed', async () => {
    const root = writeRoot(dir, files);
    const kustomize = countingKustomize(mkdtempSync(join(dir, 'bin-')));
    const options = { env: { ...process.env, KUSTOMIZE_BIN: kustomize.bin } };
    const entries = (await plainRoot(root))!;
    await buildPlainRootInChunks(dir, 'clusters/dev/gpu', entries, options, {
      chunkSize: 2,
    });
    const first = kustomize.builds();
    expect(first).toBe(chunksByName(fileEntries(files), 2).length);
    writeFileSync(join(root, 'f.yaml'), configMap('f', 'b'));
    const after = await buildPlainRootInChunks(
      dir,
      'clusters/dev/gpu',
      entries,
      options,
      { chunkSize: 2 },
    );
    expect(kustomize.builds()).toBe(first + 1);
    expect(after.find(o => o.metadata.name === 'f')).toMatchObject({
      data: { key: 'b' },
    });
  });

  it('builds only the chunk a file added among the others joins, not every chunk after it', async () => {
    const many = Object.fromEntries(
      Array.from({ length: 24 }, (_, i) => [
        `nodepools/p${String(i).padStart(2, '0')}.yaml`,
        pool(`p${i}`),
      ]),
    );
    const root = writeRoot(dir, many);
    const kustomize = countingKustomize(mkdtempSync(join(dir, 'bin-')));
    const options = { env: { ...process.env, KUSTOMIZE_BIN: kustomize.bin } };
    const chunking = { chunkSize: 4 };
    await buildPlainRootInChunks(
      dir,
      'clusters/dev/gpu',
      (await plainRoot(root))!,
      options,
      chunking,
    );
    const first = kustomize.builds();
    // Listed in the middle, as a new pool's file sorts among the others.
    const added = Object.fromEntries(
      Object.entries({ ...many, 'nodepools/p03b.yaml': pool('p3b') }).sort(
        ([a], [b]) => a.localeCompare(b),
      ),
    );
    writeRoot(dir, added);
    const after = await buildPlainRootInChunks(
      dir,
      'clusters/dev/gpu',
      (await plainRoot(root))!,
      options,
      chunking,
    );
    expect(after).toHaveLength(25);
    // The chunk it joins, or the two it splits that one into when its name ends a chunk.
    expect(kustomize.builds() - first).toBeLessThanOrEqual(2);
    expect(kustomize.builds() - first).toBeGreaterThanOrEqual(1);
  });
});

describe('chunksByName', () => {
  const entries = (names: string[]) => names.map(entry => ({ entry }));
  const names = Array.from(
    { length: 2000 },
    (_, i) => `nodepools/gpu-p${String(i).padStart(4, '0')}.yaml`,
  );

  it('keeps every file in order, about chunkSize a chunk and never more than twice that', () => {
    const chunks = chunksByName(entries(names), 100);
    expect(chunks.flat().map(f => f.entry)).toEqual(names);
    expect(Math.max(...chunks.map(c => c.length))).toBeLessThanOrEqual(200);
    expect(chunks.length).toBeGreaterThan(10);
    expect(chunks.length).toBeLessThan(40);
  });

  it('changes only the chunks around a file added or taken away', () => {
    const key = (chunk: { entry: string }[]) => chunk.map(f => f.entry).join();
    const before = new Set(chunksByName(entries(names), 100).map(key));
    const changed = (list: string[]) =>
      chunksByName(entries(list), 100).filter(c => !before.has(key(c)));
    const added = [...names];
    added.splice(1000, 0, 'nodepools/gpu-p0999b.yaml');
    expect(changed(added).length).toBeLessThanOrEqual(2);
    const removed = names.filter((_, i) => i !== 500);
    expect(changed(removed).length).toBeLessThanOrEqual(2);
  });
});

describe('buildPlainRootInChunks in a git checkout', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'gpu-chunked-git-'));
    execFileSync('git', ['init', '-q'], { cwd: dir });
  });
  afterEach(() => {
    jest.restoreAllMocks();
    rmSync(dir, { recursive: true, force: true });
  });

  const commitAll = () => {
    execFileSync('git', ['add', '-A'], { cwd: dir });
    execFileSync(
      'git',
      ['-c', 'user.name=t', '-c', 'user.email=t@e', 'commit', '-qm', 'c'],
      { cwd: dir },
    );
  };

  /** Five ConfigMaps whose content no other test builds (chunks are remembered per process). */
  const committedRoot = () => {
    const token = Math.random().toString(36).slice(2);
    const root = writeRoot(
      dir,
      Object.fromEntries(
        ['a', 'b', 'c', 'd', 'e'].map(n => [`${n}.yaml`, configMap(n, token)]),
      ),
    );
    commitAll();
    return root;
  };

  /** Reads of the root's resource files (its kustomization aside) while `run` runs. */
  async function resourceReads(root: string, run: () => Promise<unknown>) {
    const readFile = jest.spyOn(fsPromises, 'readFile');
    try {
      await run();
      return readFile.mock.calls
        .map(([file]) => String(file))
        .filter(
          file => file.startsWith(root) && !file.endsWith('kustomization.yaml'),
        );
    } finally {
      readFile.mockRestore();
    }
  }

  it('keys the chunks by the blob ids the checkout lists: building an unchanged root again reads none of its files', async () => {
    const root = committedRoot();
    const kustomize = countingKustomize(mkdtempSync(join(dir, 'bin-')));
    const options = { env: { ...process.env, KUSTOMIZE_BIN: kustomize.bin } };
    const plain = (await plainRoot(root))!;
    const chunking = {
      chunkSize: 2,
      blobIds: (await readCheckoutListing(dir))!.ids,
    };
    await buildPlainRootInChunks(
      dir,
      'clusters/dev/gpu',
      plain,
      options,
      chunking,
    );
    expect(kustomize.builds()).toBe(3);
    const reads = await resourceReads(root, () =>
      buildPlainRootInChunks(dir, 'clusters/dev/gpu', plain, options, chunking),
    );
    expect(reads).toEqual([]);
    expect(kustomize.builds()).toBe(3);
  });

  it('builds again the chunk of a file changed in the work tree and not committed (git lists no id for it)', async () => {
    const root = committedRoot();
    const kustomize = countingKustomize(mkdtempSync(join(dir, 'bin-')));
    const options = { env: { ...process.env, KUSTOMIZE_BIN: kustomize.bin } };
    const plain = (await plainRoot(root))!;
    const build = async () =>
      buildPlainRootInChunks(dir, 'clusters/dev/gpu', plain, options, {
        chunkSize: 2,
        blobIds: (await readCheckoutListing(dir))!.ids,
      });
    await build();
    expect(kustomize.builds()).toBe(3);
    writeFileSync(join(root, 'c.yaml'), configMap('c', 'changed'));
    const after = await build();
    expect(kustomize.builds()).toBe(4);
    expect(after.find(o => o.metadata.name === 'c')).toMatchObject({
      data: { key: 'changed' },
    });
  });

  it('keeps its chunks in the cache folder: a new process over the same folder builds none again', async () => {
    const root = writeRoot(dir, {
      'a.yaml': configMap('a'),
      'b.yaml': configMap('b'),
      'c.yaml': configMap('c'),
    });
    const kustomize = countingKustomize(mkdtempSync(join(dir, 'bin-')));
    const options = {
      env: { ...process.env, KUSTOMIZE_BIN: kustomize.bin },
      cacheDir: join(dir, 'cache'),
    };
    const first = await buildPlainRootInChunks(
      dir,
      'clusters/dev/gpu',
      (await plainRoot(root))!,
      options,
      { chunkSize: 2 },
    );
    expect(kustomize.builds()).toBe(2);
    // A new process: this module loaded afresh, nothing in its memory.
    let fresh!: typeof import('./chunkedBuild');
    jest.isolateModules(() => {
      fresh = require('./chunkedBuild');
    });
    const again = await fresh.buildPlainRootInChunks(
      dir,
      'clusters/dev/gpu',
      (await fresh.plainRoot(root))!,
      options,
      { chunkSize: 2 },
    );
    expect(kustomize.builds()).toBe(2);
    expect(again).toEqual(first);
  });
});

describe('plainRoot', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'gpu-plain-root-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('takes no root that does more than list its own files', async () => {
    const files = { 'a.yaml': configMap('a') };
    expect(
      await plainRoot(writeRoot(dir, files, 'namespace: ml\n')),
    ).toBeUndefined();
    const other = mkdtempSync(join(dir, 'other-'));
    const withFolder = writeRoot(other, files);
    mkdirSync(join(withFolder, 'sub'));
    writeFileSync(
      join(withFolder, 'kustomization.yaml'),
      'resources:\n  - a.yaml\n  - sub\n',
    );
    expect(await plainRoot(withFolder)).toBeUndefined();
    writeFileSync(
      join(withFolder, 'kustomization.yaml'),
      'resources:\n  - a.yaml\n  - ../outside.yaml\n',
    );
    expect(await plainRoot(withFolder)).toBeUndefined();
  });

  it('takes no generator whose name gets a hash (resources refer to it) or that merges into a resource', async () => {
    const files = { 'a.yaml': configMap('a'), 'x.yaml': 'x: 1\n' };
    const hashed = 'configMapGenerator:\n  - name: cm\n    files: [x.yaml]\n';
    expect(await plainRoot(writeRoot(dir, files, hashed))).toBeUndefined();
    const merging =
      'configMapGenerator:\n  - name: a\n    behavior: merge\n    files: [x.yaml]\n    options: { disableNameSuffixHash: true }\n';
    const other = mkdtempSync(join(dir, 'other-'));
    expect(await plainRoot(writeRoot(other, files, merging))).toBeUndefined();
  });
});
