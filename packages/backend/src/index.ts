/**
 * The local Backstage backend that `npm start` runs: catalog (with the
 * Template kind), scaffolder with the GPU actions, the gpu backend, guest
 * sign-in, in-memory SQLite, and the embedded GitOps repository named by
 * `gpu.gitops.repoUrl` (a local bare repository, seeded on first start).
 */
import { createBackend } from '@backstage/backend-defaults';
import { localGitopsRepositoryModule } from './localGitopsRepositoryModule';

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
backend.add(localGitopsRepositoryModule);
backend.start();
