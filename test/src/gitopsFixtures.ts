/**
 * Test helpers shared by the cross-package tests: copies of the fixture
 * repositories, bare remotes seeded from them, the real `gpu-gitops`
 * process, and the real kustomize over every root of a tree.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  cpSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { simpleGit } from 'simple-git';
import {
  foldersBuiltBy,
  kustomizeBuild,
  readKustomizationGraph,
} from '@gpu-gitops/plugin-gpu-node';

export const fixtures = {
  /** The product's own small repository. */
  gitopsRepo: path.resolve(__dirname, '../fixtures/gitops-repo'),
  /** A platform team's repository: overlays, several containers, hand-written apps and pools, Helm, an operator. */
  platformRepo: path.resolve(__dirname, '../fixtures/gitops-platform-repo'),
};

const bin = path.resolve(__dirname, '../../packages/cli/bin/gpu-gitops');

/** Temp folders made by a test file; `removeTempDirs()` in afterAll. */
const made: string[] = [];

export function tempDir(prefix = 'gpu-gitops-test-'): string {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}

export function removeTempDirs(): void {
  for (const dir of made.splice(0)) {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A working copy of a fixture repository (no git). */
export function copyFixture(fixture: string): string {
  const dir = path.join(tempDir(), 'repo');
  cpSync(fixture, dir, { recursive: true });
  return dir;
}

/** A bare repository whose main branch holds the fixture. */
export async function seedBareRepo(fixture: string): Promise<string> {
  const root = tempDir();
  const work = path.join(root, 'seed');
  cpSync(fixture, work, { recursive: true });
  const git = simpleGit(work);
  await git.init(['--initial-branch=main']);
  await git.addConfig('user.name', 'seed');
  await git.addConfig('user.email', 'seed@example.invalid');
  await git.add('.');
  await git.commit('seed GitOps repository');
  const bare = path.join(root, 'gitops.git');
  await simpleGit(root).clone(work, bare, ['--bare']);
  return bare;
}

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The real `gpu-gitops` process. */
export function gpuGitops(cwd: string, args: string[]): CliRun {
  const run = spawnSync(process.execPath, [bin, ...args], {
    cwd,
    encoding: 'utf8',
  });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

/** Every file of a tree and a hash of its content: to prove nothing was written. */
export function snapshotTree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (rel: string) => {
    for (const entry of readdirSync(path.join(dir, rel), {
      withFileTypes: true,
    })) {
      const child = rel ? `${rel}/${entry.name}` : entry.name;
      if (entry.name === '.git') continue;
      if (entry.isDirectory()) walk(child);
      else {
        out[child] = createHash('sha256')
          .update(readFileSync(path.join(dir, child)))
          .digest('hex');
      }
    }
  };
  walk('');
  return out;
}

type Built = Awaited<ReturnType<typeof kustomizeBuild>>;

/**
 * Builds every kustomization root of the tree with the real kustomize (roots
 * with Helm charts are skipped: they need the network). Throws on the first
 * root that does not build; returns the objects per root.
 */
export async function buildEveryRoot(dir: string): Promise<Map<string, Built>> {
  const built = new Map<string, Built>();
  const graph = await readKustomizationGraph(dir);
  for (const root of graph.roots) {
    const helm = foldersBuiltBy(graph, root).some(
      folder => graph.folders.get(folder)?.inflatesHelmCharts,
    );
    if (helm) continue;
    built.set(root, await kustomizeBuild(path.join(dir, root)));
  }
  return built;
}

/** The object of `kind`/`name` a root builds. */
export function builtObject(
  objects: Built | undefined,
  kind: string,
  name: string,
): any {
  const found = objects?.find(o => o.kind === kind && o.metadata.name === name);
  if (!found) throw new Error(`no ${kind} ${name} in the build`);
  return found;
}
