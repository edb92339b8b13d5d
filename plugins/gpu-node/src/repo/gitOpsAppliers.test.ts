/**
 * The Argo CD and Flux objects of a git checkout, found without reading
 * every YAML file: git names the committed files that mention their API
 * groups; a file changed since (or never committed) is read.
 */
import { execFileSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { GREP_FROM_FILES } from './filesMentioning';
import { GitCheckoutTree } from './gitCheckoutTree';
import { readGitOpsAppliers } from './gitOpsAppliers';
import { ReadOnceRepoTree } from './readOnceTree';

const argoApplication = (name: string, folder: string) =>
  [
    'apiVersion: argoproj.io/v1alpha1',
    'kind: Application',
    `metadata: { name: ${name}, namespace: argocd }`,
    'spec:',
    `  source: { repoURL: https://github.com/example/gitops.git, path: ${folder} }`,
    '',
  ].join('\n');

const fluxKustomization = [
  'apiVersion: kustomize.toolkit.fluxcd.io/v1',
  'kind: Kustomization',
  'metadata: { name: apps, namespace: flux-system }',
  'spec: { path: ./apps/web, sourceRef: { kind: GitRepository, name: flux-system } }',
  '',
].join('\n');

const plainDeployment = (name: string) =>
  `apiVersion: apps/v1\nkind: Deployment\nmetadata: { name: ${name} }\n`;

describe('readGitOpsAppliers over a git checkout', () => {
  let dir: string;
  const write = async (files: Record<string, string>) => {
    for (const [file, text] of Object.entries(files)) {
      await fs.mkdir(path.dirname(path.join(dir, file)), { recursive: true });
      await fs.writeFile(path.join(dir, file), text);
    }
  };

  beforeEach(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'gpu-appliers-'));
    execFileSync('git', ['init', '-q'], { cwd: dir });
    await write({
      'argocd/prod.yaml': argoApplication('prod', 'clusters/prod'),
      'flux-system/apps.yaml': fluxKustomization,
      ...Object.fromEntries(
        // As many as filesMentioning greps from (fewer are read and matched).
        Array.from({ length: GREP_FROM_FILES }, (_, i) => [
          `apps/web/site-${i}/deployment.yaml`,
          plainDeployment(`site-${i}`),
        ]),
      ),
    });
    execFileSync('git', ['add', '-A'], { cwd: dir });
    execFileSync(
      'git',
      ['-c', 'user.name=t', '-c', 'user.email=t@e', 'commit', '-qm', 'c'],
      { cwd: dir },
    );
  });
  afterEach(() => fs.rm(dir, { recursive: true, force: true }));

  it('reads only the committed files naming an applier API group, and every file changed since', async () => {
    // Changed since the commit: the index no longer tells what it holds.
    await write({
      'apps/web/site-3/deployment.yaml': argoApplication('late', 'apps/late'),
      'argocd/staging.yaml': argoApplication('staging', 'clusters/staging'),
    });
    const checkout = new GitCheckoutTree(dir);
    const read: string[] = [];
    const readFile = checkout.readFile.bind(checkout);
    checkout.readFile = async file => {
      read.push(file);
      return readFile(file);
    };

    const appliers = await readGitOpsAppliers(new ReadOnceRepoTree(checkout));

    expect(appliers.map(a => [a.file, a.path]).sort()).toEqual([
      ['apps/web/site-3/deployment.yaml', 'apps/late'],
      ['argocd/prod.yaml', 'clusters/prod'],
      ['argocd/staging.yaml', 'clusters/staging'],
      ['flux-system/apps.yaml', 'apps/web'],
    ]);
    expect(read.sort()).toEqual([
      'apps/web/site-3/deployment.yaml',
      'argocd/prod.yaml',
      'argocd/staging.yaml',
      'flux-system/apps.yaml',
    ]);
  });

  it('finds none, reading none of the committed files, when no file names their API groups', async () => {
    await fs.rm(path.join(dir, 'argocd'), { recursive: true });
    await fs.rm(path.join(dir, 'flux-system'), { recursive: true });
    execFileSync('git', ['add', '-A'], { cwd: dir });
    execFileSync(
      'git',
      ['-c', 'user.name=t', '-c', 'user.email=t@e', 'commit', '-qm', 'd'],
      { cwd: dir },
    );
    const checkout = new GitCheckoutTree(dir);
    const readFile = jest.spyOn(checkout, 'readFile');

    expect(await readGitOpsAppliers(checkout)).toEqual([]);
    expect(readFile).not.toHaveBeenCalled();
  });
});
