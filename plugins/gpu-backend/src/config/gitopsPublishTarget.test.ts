import { mockServices } from '@backstage/backend-test-utils';
import { ConfigReader } from '@backstage/config';
import { ScmIntegrations } from '@backstage/integration';
import { gitopsPublishTarget } from './gitopsPublishTarget';
import { readGpuBackendConfig } from './readGpuBackendConfig';

function gitopsOf(gitops: object) {
  const settings = readGpuBackendConfig(
    new ConfigReader({
      gpu: {
        gitops,
        clusters: { default: 'prod-eu', profiles: { 'prod-eu': {} } },
      },
    }),
  );
  return settings.gitops!;
}

describe('gitopsPublishTarget', () => {
  it("hands the publisher gpu.gitops, the integration's forge API and credentials, and its own clone", async () => {
    const integrations = ScmIntegrations.fromConfig(
      new ConfigReader({
        integrations: {
          github: [
            {
              host: 'ghe.example.com',
              apiBaseUrl: 'https://ghe.example.com/api/v3',
              token: 'ghp_secret',
            },
          ],
        },
      }),
    );
    const target = gitopsPublishTarget({
      gitops: gitopsOf({
        repoUrl: 'https://ghe.example.com/platform/gitops',
        baseBranch: 'trunk',
        forge: 'github',
        timeoutSeconds: 20,
      }),
      integrations,
      logger: mockServices.logger.mock(),
      cacheDir: '/var/cache/gpu/releases',
    });
    const { logger, ...rest } = await target();
    expect(rest).toEqual({
      repoUrl: 'https://ghe.example.com/platform/gitops',
      baseBranch: 'trunk',
      forge: 'github',
      forgeApiBaseUrl: 'https://ghe.example.com/api/v3',
      token: 'ghp_secret',
      // GitHub's git user is gpu-node's default (`x-access-token`).
      tokenUsername: undefined,
      cacheDir: '/var/cache/gpu/releases',
      timeoutMs: 20_000,
    });
    expect(logger).toBeDefined();
  });

  it("logs gpu-node's progress at debug and its warnings as warnings", async () => {
    const logger = mockServices.logger.mock();
    const target = gitopsPublishTarget({
      gitops: gitopsOf({ repoUrl: '/srv/gitops' }),
      integrations: ScmIntegrations.fromConfig(new ConfigReader({})),
      logger,
      cacheDir: '/tmp/updates',
    });
    const { logger: publishLogger } = await target();
    publishLogger!.info('cloned');
    publishLogger!.warn('push refused');
    expect(logger.debug).toHaveBeenCalledWith('cloned');
    expect(logger.info).not.toHaveBeenCalled();
    expect(logger.warn).toHaveBeenCalledWith('push refused');
  });
});
