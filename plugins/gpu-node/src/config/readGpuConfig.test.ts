import os from 'node:os';
import path from 'node:path';
import { ConfigReader } from '@backstage/config';
import { builtinCatalog } from '@gpu-gitops/plugin-gpu-common';
import { readGpuConfig } from './readGpuConfig';

const read = (gpu: object) => readGpuConfig(new ConfigReader({ gpu }));

describe('readGpuConfig', () => {
  it('has no repository, the built-in cluster and catalog and no policy without gpu.*', () => {
    const config = readGpuConfig(new ConfigReader({}));
    expect(config.gitops).toBeUndefined();
    expect(config.clusters.profiles.map(p => p.name)).toEqual(['default']);
    expect(config.clusters.defaultCluster).toBe('default');
    expect(config.catalog).toBe(builtinCatalog);
    expect(config.policy).toEqual({ defaults: {}, groups: [] });
  });

  it('fills the defaults of gpu.gitops', () => {
    expect(
      read({ gitops: { repoUrl: 'https://example.com/g.git' } }).gitops,
    ).toEqual({
      repoUrl: 'https://example.com/g.git',
      baseBranch: 'main',
      forge: 'local',
      author: { name: 'Backstage GPU', email: 'gpu-bot@backstage.local' },
      cacheDirs: {
        publish: path.join(os.tmpdir(), 'gpu-gitops', 'publish'),
        index: path.join(os.tmpdir(), 'gpu-gitops', 'index'),
        review: path.join(os.tmpdir(), 'gpu-gitops', 'review'),
        pullRequests: path.join(os.tmpdir(), 'gpu-gitops', 'pull-requests'),
        releases: path.join(os.tmpdir(), 'gpu-gitops', 'releases'),
      },
      timeoutMs: undefined,
      updatePullRequests: true,
    });
  });

  it('reads every gpu.gitops key, resolving local paths against the working directory', () => {
    const gitops = read({
      gitops: {
        repoUrl: 'repos/gitops.git',
        baseBranch: 'trunk',
        forge: 'gitea',
        author: { name: 'Bot', email: 'bot@example.com' },
        cacheDir: 'cache',
        timeoutSeconds: 15,
        updatePullRequests: false,
      },
    }).gitops!;
    expect(gitops).toMatchObject({
      repoUrl: path.resolve('repos/gitops.git'),
      baseBranch: 'trunk',
      forge: 'gitea',
      author: { name: 'Bot', email: 'bot@example.com' },
      timeoutMs: 15_000,
      updatePullRequests: false,
    });
    // Every user of a clone has its own folder under the one root.
    expect(gitops.cacheDirs).toEqual({
      publish: path.resolve('cache/publish'),
      index: path.resolve('cache/index'),
      review: path.resolve('cache/review'),
      pullRequests: path.resolve('cache/pull-requests'),
      releases: path.resolve('cache/releases'),
    });
  });

  it.each([
    [
      { gitops: { repoUrl: '/g.git', forge: 'bitbucket' } },
      'gpu.gitops.forge must be one of local, github, gitlab, gitea, got "bitbucket"',
    ],
    [
      { gitops: { baseBranch: 'main' } },
      "Missing required config value at 'gpu.gitops.repoUrl'",
    ],
    [
      { gitops: { repoUrl: '/g.git', timeoutSeconds: 0 } },
      /^gpu\.gitops\.timeoutSeconds: /,
    ],
    [
      { gitops: { repoUrl: 'https://bot:x@example.com/g.git' } },
      /^gpu\.gitops\.repoUrl: .*configure the token under integrations/,
    ],
    [
      { clusters: { default: 'prod', profiles: { dev: {} } } },
      'gpu.clusters.default names "prod", but gpu.clusters.profiles has only: dev',
    ],
    [
      { catalog: { models: [{ id: 'x' }] } },
      /^gpu\.catalog is invalid: models\.0\./,
    ],
    [
      { policy: { defaults: { allowedSharingModes: ['mpz'] } } },
      /^gpu\.policy\.defaults\.allowedSharingModes: unknown sharing mode\(s\) mpz/,
    ],
    [
      { policy: { groups: [{ owner: 'team', gpuQuota: -1 }] } },
      'gpu.policy.groups[0].gpuQuota must be a number >= 0, got -1',
    ],
    [
      {
        policy: {
          groups: [{ owner: 'team', kueue: { borrowingLimit: -1 } }],
        },
      },
      'gpu.policy.groups[0].kueue.borrowingLimit must be a number >= 0, got -1',
    ],
  ])('refuses %j at start-up, naming the key', (gpu, message) => {
    expect(() => read(gpu)).toThrow(message);
  });

  it('reads a profile’s Kubernetes version and DRA settings from gpu.clusters', () => {
    const [profile] = read({
      clusters: {
        profiles: {
          eks: {
            karpenterVersion: '1.15.1',
            kubernetesVersion: '1.36.2',
            dra: { karpenterNvidiaGate: true, consumableShares: 4 },
          },
        },
      },
    }).clusters.profiles;
    expect(profile).toMatchObject({
      name: 'eks',
      kubernetesVersion: '1.36.2',
      dra: { karpenterNvidiaGate: true, consumableShares: 4 },
    });
  });

  it('sorts the cluster profiles and takes the only one as the default', () => {
    expect(
      read({ clusters: { profiles: { solo: {} } } }).clusters,
    ).toMatchObject({ defaultCluster: 'solo', profiles: [{ name: 'solo' }] });
    const clusters = read({
      clusters: {
        default: 'b',
        profiles: { c: {}, a: {}, b: { region: 'eu-west-1' } },
      },
    }).clusters;
    expect(clusters.profiles.map(p => p.name)).toEqual(['a', 'b', 'c']);
    expect(clusters.profiles[1].region).toBe('eu-west-1');
  });
});
