import { ConfigReader } from '@backstage/config';
import { readGpuBackendConfig } from './readGpuBackendConfig';

const CANARY = 'canary-backend-url-token-9a8b7c6d';

const read = (gitops: Record<string, string>) =>
  readGpuBackendConfig(new ConfigReader({ gpu: { gitops } }));

describe('readGpuBackendConfig gpu.gitops', () => {
  it('reads the forge that pairs integration tokens with a git user, local by default', () => {
    expect(read({ repoUrl: '/srv/gitops.git' }).gitops).toEqual(
      expect.objectContaining({ repoUrl: '/srv/gitops.git', forge: 'local' }),
    );
    expect(
      read({
        repoUrl: 'https://gitlab.example.com/p/gitops.git',
        forge: 'gitlab',
      }).gitops?.forge,
    ).toBe('gitlab');
  });

  it('refuses an unknown forge', () => {
    expect(() =>
      read({ repoUrl: 'https://example.com/gitops.git', forge: 'bitbucket' }),
    ).toThrow(
      'gpu.gitops.forge must be one of local, github, gitlab, gitea, got "bitbucket"',
    );
  });

  it.each([
    [
      'user-info',
      `https://bot:${CANARY}@example.com/gitops.git`,
      'url-credentials',
    ],
    [
      'git:// user-info',
      `git://${CANARY}@example.com/gitops.git`,
      'url-credentials',
    ],
    [
      'a query token',
      `https://example.com/gitops.git?private_token=${CANARY}`,
      'url-query',
    ],
    [
      'an scp-style user',
      `${CANARY}@example.com:gitops.git`,
      'url-credentials',
    ],
  ])(
    'refuses a repoUrl with %s at start-up, showing it redacted',
    (_form, repoUrl, rule) => {
      const error = (() => {
        try {
          read({ repoUrl });
          return undefined;
        } catch (e) {
          return e as Error;
        }
      })();
      expect(error?.message).toMatch(/^gpu\.gitops\.repoUrl: /);
      expect(error?.message).toContain(`***`);
      expect((error as any).issues.map((i: any) => i.rule)).toContain(rule);
      expect(`${error?.message}${error?.stack}`).not.toContain(CANARY);
    },
  );

  it('reads gpu.gitops.timeoutSeconds for the fetches, refusing what is no number of seconds', () => {
    expect(read({ repoUrl: '/srv/gitops.git' }).gitops?.timeoutMs).toBe(
      undefined,
    );
    expect(
      readGpuBackendConfig(
        new ConfigReader({
          gpu: { gitops: { repoUrl: '/srv/gitops.git', timeoutSeconds: 15 } },
        }),
      ).gitops?.timeoutMs,
    ).toBe(15_000);
    expect(() =>
      readGpuBackendConfig(
        new ConfigReader({
          gpu: { gitops: { repoUrl: '/srv/gitops.git', timeoutSeconds: 0 } },
        }),
      ),
    ).toThrow(/^gpu\.gitops\.timeoutSeconds: /);
  });

  it('says where the token goes instead', () => {
    expect(() => read({ repoUrl: 'https://bot:x@example.com/g.git' })).toThrow(
      'configure the token under integrations',
    );
  });
});

describe('readGpuBackendConfig cache folders', () => {
  it("keeps the index's clone under gpu.gitops.cacheDir, or in gpu.index.cacheDir when set", () => {
    const shared = readGpuBackendConfig(
      new ConfigReader({
        gpu: {
          gitops: { repoUrl: '/srv/gitops.git', cacheDir: '/var/cache/gpu' },
        },
      }),
    ).gitops!.cacheDirs;
    expect(shared).toEqual({
      publish: '/var/cache/gpu/publish',
      index: '/var/cache/gpu/index',
      review: '/var/cache/gpu/review',
      pullRequests: '/var/cache/gpu/pull-requests',
      releases: '/var/cache/gpu/releases',
    });
    expect(
      readGpuBackendConfig(
        new ConfigReader({
          gpu: {
            gitops: { repoUrl: '/srv/gitops.git', cacheDir: '/var/cache/gpu' },
            index: { cacheDir: '/var/cache/gpu-index' },
          },
        }),
      ).gitops!.cacheDirs,
    ).toEqual({ ...shared, index: '/var/cache/gpu-index' });
  });
});
