import { promises as fs } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { ConfigReader } from '@backstage/config';
import { createGpuActionServices } from './gpuActionServices';

const EXAMPLE = path.resolve(__dirname, '../../examples/app-config.gpu.yaml');

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
    });
    expect(services.clusters.defaultName).toBe('prod-eu');
    expect(services.clusters.names).toEqual(['lab', 'prod-eu']);
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

  it('refuses a repository URL with credentials in it', () => {
    expect(() =>
      createGpuActionServices(
        new ConfigReader({
          gpu: { gitops: { repoUrl: 'https://bot:secret@github.com/o/r' } },
        }),
      ),
    ).toThrow(/must not contain credentials/);
  });

  it('reports an unknown cluster as an input error naming the configured ones', () => {
    const services = createGpuActionServices(new ConfigReader({}));
    expect(() => services.clusters.get('nope')).toThrow(
      /input "cluster": unknown cluster "nope"; configured clusters: default/,
    );
  });
});
