/**
 * Packs workspace packages as `npm publish` would: `backstage-cli package
 * build`, then `npm pack`, whose `prepack` script (`backstage-cli package
 * prepack`) points main, types and exports at dist/. Both run on a copy of
 * each package in a staging workspace, so the repository's package.json
 * files are never rewritten while other tests resolve them.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, cpSync, mkdirSync, symlinkSync } from 'node:fs';
import path from 'node:path';

export const repoRoot = path.resolve(__dirname, '../../..');

/** The environment of a command run outside `npm test`: no npm_* settings inherited from it (prefix, legacy-peer-deps, ...), except the cache and user config. */
export function cleanNpmEnv(): NodeJS.ProcessEnv {
  const keep = new Set([
    'npm_config_cache',
    'npm_config_userconfig',
    'npm_config_globalconfig',
    'npm_config_cafile',
    'npm_config_registry',
    'npm_config_nodedir',
  ]);
  return Object.fromEntries(
    Object.entries(process.env).filter(
      ([key]) => !key.toLowerCase().startsWith('npm_') || keep.has(key),
    ),
  );
}

/** Runs a command; throws with its output when it fails. */
export function run(
  command: string,
  args: string[],
  cwd: string,
  timeoutMs = 10 * 60_000,
): string {
  const result = spawnSync(command, args, {
    cwd,
    env: cleanNpmEnv(),
    encoding: 'utf8',
    timeout: timeoutMs,
  });
  if (result.status !== 0) {
    throw new Error(
      `${command} ${args.join(' ')} (in ${cwd}) failed: ${
        result.error?.message ?? `exit ${result.status}`
      }\n${result.stdout}\n${result.stderr}`,
    );
  }
  return result.stdout;
}

/**
 * Builds and packs the packages (folders relative to the repository root,
 * dependencies first) into `tarballDir`; returns the tarballs' paths in the
 * packages' order.
 * `stageDir` (empty) receives the staging workspace. The libraries' type
 * output needs the declarations `tsc` writes to dist-types/, so `tsc` runs
 * first (incremental: quick after `npm test`'s own run).
 */
export function packWorkspacePackages(
  packageDirs: string[],
  stageDir: string,
  tarballDir: string,
): string[] {
  const bin = (name: string) => path.join(repoRoot, 'node_modules/.bin', name);
  run(bin('tsc'), [], repoRoot);
  mkdirSync(tarballDir, { recursive: true });

  // What backstage-cli reads at the root: the workspace package.json,
  // tsconfig.json (prepack reads declarations through it), dist-types/ and
  // node_modules/ (its own modules and the tsconfig it extends).
  copyFileSync(
    path.join(repoRoot, 'package.json'),
    path.join(stageDir, 'package.json'),
  );
  copyFileSync(
    path.join(repoRoot, 'tsconfig.json'),
    path.join(stageDir, 'tsconfig.json'),
  );
  for (const linked of ['node_modules', 'dist-types']) {
    symlinkSync(path.join(repoRoot, linked), path.join(stageDir, linked));
  }

  const tarballs: string[] = [];
  for (const dir of packageDirs) {
    const source = path.join(repoRoot, dir);
    const staged = path.join(stageDir, dir);
    const skipped = ['node_modules', 'dist'].map(name =>
      path.join(source, name),
    );
    cpSync(source, staged, {
      recursive: true,
      filter: file => !skipped.includes(file),
    });
    run(bin('backstage-cli'), ['package', 'build'], staged);
    // npm pack prints the tarball's file name last.
    const packed = run(
      'npm',
      ['pack', '--pack-destination', tarballDir],
      staged,
    );
    tarballs.push(path.join(tarballDir, packed.trim().split('\n').pop()!));
  }
  return tarballs;
}
