import { promises as fs } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { ConfigReader } from '@backstage/config';
import { createGpuActionServices } from './gpuActionServices';

const EXAMPLE = path.resolve(__dirname, '../../examples/app-config.gpu.yaml');

const CANARY = 'canary-config-url-token-1b2c3d4e';

describe('createGpuActionServices', () => {
  it('reads the example configuration: repository, clusters, catalog and policy', async () => {
    const text = (await fs.readFile(EXAMPLE, 'utf8')).replace(
      '${GITHUB_TOKEN}',
      'ghp_example',
    );
    const services = createGpuActionServices(new ConfigReader(parse(text)));
    expect(services.gitops).toMatchObject({
      repoUrl: 'https://github.example.com/platform/gitops',
      forge: 'github',
      baseBranch: 'main',
      timeoutMs: 90_000,
    });
    expect(services.clusters.defaultName).toBe('prod-eu');
    expect(services.clusters.names).toEqual(['aks-weu', 'lab', 'prod-eu']);
    // An Azure profile references the provider's node class kind by default.
    expect(services.clusters.get('aks-weu').nodeClass).toEqual({
      group: 'karpenter.azure.com',
      kind: 'AKSNodeClass',
      name: 'gpu',
    });
    expect(services.clusters.get().consolidateAfter).toBe('10m');
    expect(services.clusters.get('lab').provider).toBe('static');
    expect(services.catalog.models.map(m => m.id)).toContain('lab-a30');
    expect(services.catalog.models.map(m => m.id)).not.toContain('b200');
    expect(services.policy.groups.map(g => g.owner)).toEqual([
      'group:default/ml-platform',
      'group:default/research',
    ]);
    expect(
      services.integrations.github.byHost('github.example.com'),
    ).toBeDefined();
  });

  it.each([
    ['user-info', `https://bot:${CANARY}@github.com/o/r`, 'url-credentials'],
    ['git:// user-info', `git://${CANARY}@github.com/o/r`, 'url-credentials'],
    [
      'a query token',
      `https://github.com/o/r?access_token=${CANARY}`,
      'url-query',
    ],
    ['an scp-style user', `${CANARY}@github.com:o/r.git`, 'url-credentials'],
  ])(
    'refuses a gpu.gitops.repoUrl with %s at start-up, showing it redacted',
    (_form, repoUrl, rule) => {
      const error = (() => {
        try {
          createGpuActionServices(
            new ConfigReader({ gpu: { gitops: { repoUrl } } }),
          );
          return undefined;
        } catch (e) {
          return e as Error;
        }
      })();
      expect(error?.message).toMatch(/^gpu\.gitops\.repoUrl: /);
      expect(error?.message).toContain('***');
      expect((error as any).issues.map((i: any) => i.rule)).toContain(rule);
      expect(`${error?.message}${error?.stack}`).not.toContain(CANARY);
    },
  );

  it('refuses a gpu.gitops.timeoutSeconds that is no number of seconds at start-up', () => {
    for (const timeoutSeconds of [0, -5, 7200]) {
      expect(() =>
        createGpuActionServices(
          new ConfigReader({
            gpu: { gitops: { repoUrl: '/srv/gitops.git', timeoutSeconds } },
          }),
        ),
      ).toThrow(/^gpu\.gitops\.timeoutSeconds: /);
    }
  });

  it('reports an unknown cluster as an input error naming the configured ones', () => {
    const services = createGpuActionServices(new ConfigReader({}));
    expect(() => services.clusters.get('nope')).toThrow(
      /input "cluster": unknown cluster "nope"; configured clusters: default/,
    );
  });
});
