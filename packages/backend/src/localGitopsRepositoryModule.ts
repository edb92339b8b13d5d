import path from 'node:path';
import {
  coreServices,
  createBackendModule,
  resolvePackagePath,
} from '@backstage/backend-plugin-api';
import { ensureLocalGitopsRepository } from './localGitopsRepository';

/** What the embedded repository starts with: the project's realistic GitOps fixture. */
export const FIXTURE_GITOPS_REPO = resolvePackagePath(
  'backend',
  '../../test/fixtures/gitops-repo',
);

/** A repoUrl that names a local folder rather than a git server (`https://`, `ssh://`, `git@host:`). */
function isLocalPath(repoUrl: string): boolean {
  return (
    !/^[a-z][a-z0-9+.-]*:\/\//i.test(repoUrl) &&
    !/^[^/@]+@[^/:]+:/.test(repoUrl)
  );
}

/**
 * Seeds the embedded GitOps repository before the gpu backend first reads
 * it: when `gpu.gitops.forge` is `local` and `gpu.gitops.repoUrl` is a local
 * path (relative to the backend's working directory, as the gpu plugins read
 * it), a bare repository is created there from the fixture on first start.
 * The path comes from config, never a second hard-coded copy, so
 * `--config` files (the end-to-end test's temp repository) move it too.
 * A module of the gpu plugin because modules start before their plugin.
 */
export const localGitopsRepositoryModule = createBackendModule({
  pluginId: 'gpu',
  moduleId: 'local-gitops-repository',
  register(env) {
    env.registerInit({
      deps: { config: coreServices.rootConfig, logger: coreServices.logger },
      async init({ config, logger }) {
        const gitops = config.getOptionalConfig('gpu.gitops');
        const repoUrl = gitops?.getOptionalString('repoUrl');
        if (gitops?.getOptionalString('forge') !== 'local' || !repoUrl) return;
        if (!isLocalPath(repoUrl)) return;
        const { created, bareDir } = await ensureLocalGitopsRepository({
          bareDir: path.resolve(repoUrl),
          fixtureDir: FIXTURE_GITOPS_REPO,
          branch: gitops.getOptionalString('baseBranch') ?? 'main',
        });
        logger.info(
          `${created ? 'Created' : 'Using'} local GitOps repository ${bareDir}`,
        );
      },
    });
  },
});
