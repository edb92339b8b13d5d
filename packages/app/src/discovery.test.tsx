/**
 * An app that lets package discovery find its plugins (`app.packages: all`),
 * as the install guide (docs/platform-engineers.md) offers: the package list the CLI's bundler writes from the
 * app's dependencies (`createDetectedModulesEntryPoint`, the code
 * `backstage-cli package start` and `build` run), then `createApp`'s own
 * discovery (`discoverAvailableFeatures`, `resolveAsyncFeatures` from
 * `@backstage/frontend-defaults`). Discovery keeps only each entry point's
 * default export, so whatever the GPU plugin needs must be reachable from it.
 */
import { ConfigReader } from '@backstage/config';
import { prepareSpecializedApp } from '@backstage/frontend-app-api';
import {
  discoverAvailableFeatures,
  resolveAsyncFeatures,
} from '@backstage/frontend-defaults';
import appPlugin from '@backstage/plugin-app';
import { formFieldsApiRef } from '@backstage/plugin-scaffolder/alpha';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

// The bundler's package detection, as `backstage-cli package start` loads it:
// from the CLI's own build module (@backstage/cli 0.36.6 →
// @backstage/cli-module-build 0.1.8, dist/lib/bundler/packageDetection.cjs.js).
const { createDetectedModulesEntryPoint } = require(
  require.resolve(
    '@backstage/cli-module-build/dist/lib/bundler/packageDetection.cjs.js',
    { paths: [path.dirname(require.resolve('@backstage/cli/package.json'))] },
  ),
);

const APP_DIR = path.resolve(__dirname, '..');

const config = new ConfigReader({
  app: {
    title: 'GPU GitOps for Backstage',
    baseUrl: 'http://localhost:3000',
    packages: 'all',
  },
  backend: { baseUrl: 'http://localhost:7007' },
});

let appCopy: string;

// The app's package.json with its dependencies linked beside it, as an
// adopter's app folder has them: the detected-modules file is written there.
function linkAppCopy(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gpu-discovery-app-'));
  const manifest = path.join(APP_DIR, 'package.json');
  fs.copyFileSync(manifest, path.join(dir, 'package.json'));
  const { dependencies } = JSON.parse(fs.readFileSync(manifest, 'utf8'));
  for (const name of Object.keys(dependencies)) {
    const target = path.dirname(
      require.resolve(`${name}/package.json`, { paths: [APP_DIR] }),
    );
    fs.mkdirSync(path.dirname(path.join(dir, 'node_modules', name)), {
      recursive: true,
    });
    fs.symlinkSync(target, path.join(dir, 'node_modules', name), 'dir');
  }
  return dir;
}

beforeAll(async () => {
  appCopy = linkAppCopy();
  const [entry] = await createDetectedModulesEntryPoint({
    config,
    targetPath: appCopy,
  });
  require(path.join(appCopy, 'node_modules', `${entry}.js`));
});

afterAll(() => {
  fs.rmSync(appCopy, { recursive: true, force: true });
  delete (window as unknown as Record<string, unknown>)[
    '__@backstage/discovered__'
  ];
});

async function discoveredApp() {
  const { features } = await resolveAsyncFeatures({
    config,
    features: discoverAvailableFeatures(config).features,
  });
  return prepareSpecializedApp({
    features: [appPlugin, ...features],
    config,
  }).getBootstrapApp();
}

describe('an app that discovers its packages', () => {
  it("gives the scaffolder's form the GPU fields", async () => {
    const app = await discoveredApp();
    const names = (await app.apis.get(formFieldsApiRef)!.loadFormFields()).map(
      field => (field as { name?: string }).name,
    );
    expect(names).toEqual(
      expect.arrayContaining([
        'GpuRequestPicker',
        'GpuWorkloadContainerPicker',
        'GpuClusterPicker',
      ]),
    );
  });

  it.each([
    ['api:gpu', 'root'],
    ['entity-card:gpu/allocation', 'entity-content:catalog/overview'],
    ['page:gpu/overview', 'app/routes'],
    ['page:gpu/pull-requests', 'app/routes'],
  ])('attaches %s to %s', async (id, parent) => {
    const node = (await discoveredApp()).tree.nodes.get(id);
    expect(node?.spec.disabled).toBe(false);
    expect(node?.edges.attachedTo?.node.spec.id).toBe(parent);
  });
});
