/**
 * The Karpenter v0.31 GPU setup of `../__fixtures__/v1alpha5-repo` (cluster
 * `legacy`: Provisioners, AWSNodeTemplates, a hand-written multi-key
 * device-plugin ConfigMap, a mig-parted config and GPU workloads), as files
 * to seed a git remote with: the import's end-to-end tests (publisher, CLI,
 * action) start from the same repository as its unit tests.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const FIXTURE = path.join(__dirname, '../__fixtures__/v1alpha5-repo');

/** @public */
export function legacyKarpenterRepoFiles(): Record<string, string> {
  const files: Record<string, string> = {};
  const walk = (dir: string) => {
    for (const entry of readdirSync(path.join(FIXTURE, dir), {
      withFileTypes: true,
    })) {
      const relative = dir ? `${dir}/${entry.name}` : entry.name;
      if (entry.isDirectory()) walk(relative);
      else files[relative] = readFileSync(path.join(FIXTURE, relative), 'utf8');
    }
  };
  walk('');
  return files;
}
