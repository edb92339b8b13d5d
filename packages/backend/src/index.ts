/**
 * The local Backstage backend that `npm run start:backend` runs: catalog
 * (with the Template kind), scaffolder with the GPU actions, guest sign-in,
 * in-memory SQLite, and a local bare GitOps repository under `.data/` seeded
 * from test/fixtures/gitops-repo on first start.
 */
import path from 'node:path';
import { createBackend } from '@backstage/backend-defaults';
import { ensureLocalGitopsRepository } from './localGitopsRepository';

// `backstage-cli package start` runs in packages/backend; app-config.yaml
// names the same repository relative to it (gpu.gitops.repoUrl).
const repoRoot = path.resolve(process.cwd(), '../..');

async function main() {
  const { created, bareDir } = await ensureLocalGitopsRepository({
    bareDir: path.join(repoRoot, '.data', 'gitops.git'),
    fixtureDir: path.join(repoRoot, 'test', 'fixtures', 'gitops-repo'),
  });
  // eslint-disable-next-line no-console
  console.log(
    `${created ? 'Created' : 'Using'} local GitOps repository ${bareDir}`,
  );

  const backend = createBackend();
  backend.add(import('@backstage/plugin-auth-backend'));
  backend.add(import('@backstage/plugin-auth-backend-module-guest-provider'));
  backend.add(import('@backstage/plugin-catalog-backend'));
  backend.add(
    import('@backstage/plugin-catalog-backend-module-scaffolder-entity-model'),
  );
  backend.add(import('@backstage/plugin-scaffolder-backend'));
  backend.add(import('@gpu-gitops/plugin-scaffolder-backend-module-gpu'));
  backend.add(import('@gpu-gitops/plugin-gpu-backend'));
  await backend.start();
}

main().catch(error => {
  // eslint-disable-next-line no-console
  console.error(error);
  process.exit(1);
});
