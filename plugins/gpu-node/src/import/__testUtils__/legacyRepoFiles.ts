/**
 * The import's fixture repositories (`../__fixtures__/<shape>`), as files to
 * seed a git remote with: the import's end-to-end tests (publisher, CLI,
 * action) and the cross-package tests start from the same repositories as
 * its unit tests. `v1alpha5-repo`: the Karpenter v0.31 GPU setup of cluster
 * `legacy` (Provisioners, AWSNodeTemplates, a hand-written multi-key
 * device-plugin ConfigMap, a mig-parted config and GPU workloads);
 * `operator-configmaps-repo`: cluster `edge`, a v0.37 MIG pool beside the
 * GPU Operator's hand-written ConfigMaps, and a pool under `infra/`. Each
 * fixture's README says more.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const FIXTURES = path.join(__dirname, '../__fixtures__');

/**
 * The shapes of repository the import's tests start from.
 *
 * @public
 */
export type ImportFixtureShape =
  'v1alpha5-repo' | 'v1beta1-repo' | 'operator-configmaps-repo';

/**
 * The files of one of the import's fixture repositories, by path.
 *
 * @public
 */
export function importFixtureRepoFiles(
  shape: ImportFixtureShape,
): Record<string, string> {
  const root = path.join(FIXTURES, shape);
  const files: Record<string, string> = {};
  const walk = (dir: string) => {
    for (const entry of readdirSync(path.join(root, dir), {
      withFileTypes: true,
    })) {
      const relative = dir ? `${dir}/${entry.name}` : entry.name;
      if (entry.isDirectory()) walk(relative);
      else files[relative] = readFileSync(path.join(root, relative), 'utf8');
    }
  };
  walk('');
  return files;
}

/** @public */
export function legacyKarpenterRepoFiles(): Record<string, string> {
  return importFixtureRepoFiles('v1alpha5-repo');
}
