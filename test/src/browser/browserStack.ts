/**
 * What the browser tests run against: a fixture GitOps repository (seeded by
 * the test, through the real publisher), the real gpu backend over it with a
 * mocked catalog, the plugin's dev app bundled and served, and Chromium.
 */
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import {
  mockServices,
  startTestBackend,
  type TestBackend,
} from '@backstage/backend-test-utils';
import type { Entity } from '@backstage/catalog-model';
import { catalogServiceMock } from '@backstage/plugin-catalog-node/testUtils';
import scaffolderBackendPlugin from '@backstage/plugin-scaffolder-backend';
import gpuBackendPlugin from '@gpu-gitops/plugin-gpu-backend';
import scaffolderModuleGpu from '@gpu-gitops/plugin-scaffolder-backend-module-gpu';
import type { Browser } from 'playwright-core';
import { launchChromium } from './chromium';
import { bundleDevApp, serveDevApp, type DevAppServer } from './devAppServer';
import { createGitopsRemote, type GitopsRemote } from './fixtureGitopsRemote';

export interface BrowserStack {
  /** The test's temp folder (screenshots, caches, the bundle); removed by `stop`. */
  temp: string;
  remote: GitopsRemote;
  backend: TestBackend;
  app: DevAppServer;
  browser: Browser;
  /** Closes the browser, the app and the backend, and removes the repository and `temp`. */
  stop(): Promise<void>;
}

export interface BrowserStackOptions {
  /** The prefix of the temp folder's name. */
  tempPrefix: string;
  /** Writes the repository's content before the backend reads it; `publisherCache` is a folder for the publisher's clones. */
  seed(repo: { remote: GitopsRemote; publisherCache: string }): Promise<void>;
  /** The entities the mocked catalog serves. */
  entities: Entity[];
  /** `gpu.clusters`. */
  clusters: object;
  /** `gpu.gitops.updatePullRequests`; unset keeps the backend's default. */
  updatePullRequests?: boolean;
  /** Also the scaffolder backend with the GPU actions (the Release form's dry run). */
  scaffolder?: boolean;
  /** Further `gpu.*` keys (`utilization`) and other top-level config (`kubernetes`). */
  config?: { gpu?: object; [key: string]: unknown };
}

/** Starts the stack; call `stop` in afterAll (it copes with a stack that failed half-way). */
export async function startBrowserStack(
  options: BrowserStackOptions,
): Promise<BrowserStack> {
  const stack: Partial<BrowserStack> = {};
  const stop = async () => {
    await stack.browser?.close();
    await stack.app?.close();
    await stack.backend?.stop();
    await stack.remote?.cleanup();
    if (stack.temp) await fs.rm(stack.temp, { recursive: true, force: true });
  };
  try {
    stack.temp = await fs.mkdtemp(path.join(os.tmpdir(), options.tempPrefix));
    stack.remote = await createGitopsRemote();
    await options.seed({
      remote: stack.remote,
      publisherCache: path.join(stack.temp, 'publisher-cache'),
    });
    stack.backend = await startTestBackend({
      features: [
        gpuBackendPlugin,
        ...(options.scaffolder
          ? [scaffolderBackendPlugin, scaffolderModuleGpu]
          : []),
        catalogServiceMock.factory({ entities: options.entities }),
        mockServices.rootConfig.factory({
          data: {
            ...options.config,
            gpu: {
              ...options.config?.gpu,
              gitops: {
                repoUrl: stack.remote.url,
                baseBranch: 'main',
                cacheDir: path.join(stack.temp, 'backend-cache'),
                ...(options.updatePullRequests === undefined
                  ? {}
                  : { updatePullRequests: options.updatePullRequests }),
              },
              clusters: options.clusters,
              // Only what a test triggers (a merge's own refresh) re-reads the repository.
              index: { refresh: '1h' },
            },
          },
        }),
      ],
    });
    const bundleDir = path.join(stack.temp, 'bundle');
    await bundleDevApp(bundleDir);
    stack.app = await serveDevApp({
      dir: bundleDir,
      backendPort: (stack.backend.server.address() as AddressInfo).port,
    });
    stack.browser = await launchChromium();
  } catch (error) {
    await stop();
    throw error;
  }
  return { ...(stack as Omit<BrowserStack, 'stop'>), stop };
}
