/**
 * What an adopter reads in each published package.json: where the source,
 * the README and the issue tracker are, the Node versions it runs on, the
 * plugin's other packages (`backstage.pluginPackages`), and the files the
 * README tells them to copy. Backstage's own `repo fix --publish --check`
 * decides the Backstage fields; the rest is this project's rule.
 */
import { execFile } from 'node:child_process';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';

const ROOT = path.resolve(__dirname, '../../..');

interface Manifest {
  name: string;
  private?: boolean;
  bin?: Record<string, string>;
  exports?: Record<string, string>;
  scripts?: Record<string, string>;
  homepage?: string;
  repository?: { type: string; url: string; directory?: string };
  bugs?: { url: string };
  engines?: { node: string };
  files?: string[];
}

async function readManifest(dir: string): Promise<Manifest> {
  return JSON.parse(await fs.readFile(path.join(dir, 'package.json'), 'utf8'));
}

async function workspaceDirs(): Promise<string[]> {
  const dirs: string[] = [];
  for (const parent of ['packages', 'plugins']) {
    for (const name of await fs.readdir(path.join(ROOT, parent))) {
      dirs.push(`${parent}/${name}`);
    }
  }
  return dirs.sort();
}

describe('package manifests', () => {
  it('are as Backstage wants them published (backstage-cli repo fix --publish --check)', async () => {
    const cli = require.resolve('@backstage/cli/bin/backstage-cli');
    // Rejects (non-zero exit) when a package.json would change.
    await expect(
      promisify(execFile)(
        process.execPath,
        [cli, 'repo', 'fix', '--publish', '--check'],
        { cwd: ROOT },
      ),
    ).resolves.toBeDefined();
  });

  it('name the repository, README, issue tracker and Node versions of the root in every published package', async () => {
    const root = await readManifest(ROOT);
    const repositoryUrl = root.repository!.url;
    const published: string[] = [];
    for (const dir of await workspaceDirs()) {
      const manifest = await readManifest(path.join(ROOT, dir));
      if (manifest.private) continue;
      published.push(manifest.name);
      const hasReadme = await fs
        .access(path.join(ROOT, dir, 'README.md'))
        .then(() => true)
        .catch(() => false);
      expect({ dir, ...manifest }).toEqual(
        expect.objectContaining({
          dir,
          repository: { type: 'git', url: repositoryUrl, directory: dir },
          homepage: hasReadme
            ? `${repositoryUrl}/tree/main/${dir}#readme`
            : root.homepage,
          bugs: root.bugs,
          engines: root.engines,
        }),
      );
    }
    expect(published.length).toBeGreaterThanOrEqual(5);
  });

  it('ship the templates and the example config the install guide tells an adopter to copy', async () => {
    const dir = path.join(ROOT, 'plugins/scaffolder-backend-module-gpu');
    const manifest = await readManifest(dir);
    const installGuide = await fs.readFile(
      path.join(ROOT, 'docs/platform-engineers.md'),
      'utf8',
    );
    const shipped = [
      'templates/gpu-workload/template.yaml',
      'templates/gpu-cluster-bootstrap/template.yaml',
      'templates/gpu-release/template.yaml',
      'templates/gpu-setup-import/template.yaml',
      'examples/app-config.gpu.yaml',
    ];
    for (const file of shipped) {
      await expect(fs.access(path.join(dir, file))).resolves.toBeUndefined();
      expect(manifest.files).toContain(file.split('/')[0]);
    }
    expect(installGuide).toContain(
      `node_modules/${manifest.name}/templates/gpu-workload/template.yaml`,
    );
    // The repository's own catalog registers the shipped files, not copies.
    const catalogInfo = await fs.readFile(
      path.join(ROOT, 'catalog-info.yaml'),
      'utf8',
    );
    for (const file of shipped.filter(f => f.startsWith('templates/'))) {
      expect(catalogInfo).toContain(
        `./plugins/scaffolder-backend-module-gpu/${file}`,
      );
    }
  });

  it('give every published package named entry points and an API report that `npm test` checks', async () => {
    const root = await readManifest(ROOT);
    const reported = root.scripts!['api-reports:only'].split(' ');
    for (const dir of await workspaceDirs()) {
      const manifest = await readManifest(path.join(ROOT, dir));
      if (manifest.private) continue;
      expect({ dir, reported: reported.includes(dir) }).toEqual({
        dir,
        reported: true,
      });
      const entries = Object.entries(manifest.exports ?? {}).filter(([, f]) =>
        /\.tsx?$/.test(f),
      );
      for (const [entry, file] of entries) {
        const text = await fs.readFile(path.join(ROOT, dir, file), 'utf8');
        // A reader (and API Extractor) sees the whole surface in the file.
        expect({
          file: `${dir}/${file}`,
          star: /export (type )?\*/.test(text),
        }).toEqual({ file: `${dir}/${file}`, star: false });
        const report = manifest.bin
          ? 'cli-report.md'
          : `report${entry === '.' ? '' : `-${entry.slice(2)}`}.api.md`;
        await expect(
          fs.access(path.join(ROOT, dir, report)),
        ).resolves.toBeUndefined();
      }
    }
    // After a whole (not incremental) tsc: the declarations of types inferred
    // from zod list their properties in the order the checker met them, which
    // an incremental build can change.
    expect(root.scripts!.test).toMatch(
      /^tsc --incremental false && npm run api-reports:only -- --ci && /,
    );
  });
});
