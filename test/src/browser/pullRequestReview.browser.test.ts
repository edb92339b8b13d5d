/**
 * Review in the browser, on the local forge: a published (not merged) GPU
 * request shows on its component's card as an open pull request; its link
 * opens the app's review page with the description the product wrote and
 * the diff; Merge merges it into main of the real bare repository, and the
 * card shows the allocation once the backend's index has read main again.
 * Chromium on the plugin's dev app against the real gpu backend, with the
 * permission framework as a default install has it (no policy: allowed).
 */
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { mockServices, startTestBackend } from '@backstage/backend-test-utils';
import type { Entity } from '@backstage/catalog-model';
import { catalogServiceMock } from '@backstage/plugin-catalog-node/testUtils';
import {
  builtinCatalog,
  parseGpuRequest,
  resolveClusterProfile,
} from '@gpu-gitops/plugin-gpu-common';
import {
  publishGpuRequest,
  type PublishGpuRequestResult,
} from '@gpu-gitops/plugin-gpu-node';
import gpuBackendPlugin from '@gpu-gitops/plugin-gpu-backend';
import type { Browser } from 'playwright-core';
import { simpleGit } from 'simple-git';
import { launchChromium, saveScreenshot } from './chromium';
import { bundleDevApp, serveDevApp, type DevAppServer } from './devAppServer';
import { createGitopsRemote, type GitopsRemote } from './fixtureGitopsRemote';

jest.setTimeout(300_000);

const cluster = resolveClusterProfile({ name: 'dev' });

const chat: Entity = {
  apiVersion: 'backstage.io/v1alpha1',
  kind: 'Component',
  metadata: {
    name: 'chat',
    namespace: 'default',
    annotations: {
      'backstage.io/kubernetes-id': 'chat',
      'backstage.io/kubernetes-namespace': 'ml',
    },
  },
  spec: { type: 'service', lifecycle: 'production', owner: 'ml-platform' },
};

describe('GPU pull-request review in Chromium (dev app, real gpu backend, local forge)', () => {
  let temp: string;
  let remote: GitopsRemote;
  let backend: Awaited<ReturnType<typeof startTestBackend>>;
  let app: DevAppServer;
  let browser: Browser;
  let published: PublishGpuRequestResult;

  beforeAll(async () => {
    temp = await fs.mkdtemp(path.join(os.tmpdir(), 'gpu-browser-review-'));
    remote = await createGitopsRemote();
    published = await publishGpuRequest({
      request: parseGpuRequest({
        apiVersion: 'gpu.backstage.io/v1alpha1',
        kind: 'GpuRequest',
        metadata: { name: 'chat', namespace: 'ml' },
        spec: {
          owner: 'group:default/ml-platform',
          gpu: {
            model: 'l4',
            sharing: 'time-slicing',
            replicas: 2,
            vramGiB: 4,
          },
          workload: { image: 'ghcr.io/acme/chat:1.0.0' },
        },
      }),
      cluster,
      catalog: builtinCatalog,
      repoUrl: remote.url,
      forge: 'local',
      cacheDir: path.join(temp, 'publisher-cache'),
    });

    backend = await startTestBackend({
      features: [
        gpuBackendPlugin,
        catalogServiceMock.factory({ entities: [chat] }),
        mockServices.rootConfig.factory({
          data: {
            gpu: {
              gitops: {
                repoUrl: remote.url,
                baseBranch: 'main',
                cacheDir: path.join(temp, 'backend-cache'),
                updatePullRequests: false,
              },
              clusters: { default: 'dev', profiles: { dev: {} } },
              // Only the merge's own refresh can make the card show it.
              index: { refresh: '1h' },
            },
          },
        }),
      ],
    });
    const bundleDir = path.join(temp, 'bundle');
    await bundleDevApp(bundleDir);
    app = await serveDevApp({
      dir: bundleDir,
      backendPort: (backend.server.address() as AddressInfo).port,
    });
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await app?.close();
    await backend?.stop();
    await remote?.cleanup();
    if (temp) await fs.rm(temp, { recursive: true, force: true });
  });

  it('the card lists the open pull request; its page shows the description and diff; Merge merges into main and the card shows the allocation', async () => {
    const page = await browser.newPage({
      viewport: { width: 1280, height: 900 },
    });
    const cardUrl = `${app.url}/gpu-dev?entity=component:default/chat`;
    await page.goto(cardUrl);

    // Not merged: no allocation yet, the open pull request instead.
    await page.getByText('No GPUs requested').waitFor({ timeout: 60_000 });
    const open = page.getByRole('list', { name: 'Open GPU pull requests' });
    await open.waitFor({ timeout: 30_000 });
    await open.getByRole('link', { name: published.title }).click();

    // The review page: /gpu/pull-requests/<branch without gpu/>.
    await page.waitForURL(`${app.url}/gpu/pull-requests/ml-chat`);
    await page
      .getByRole('heading', { name: published.title })
      .waitFor({ timeout: 30_000 });
    // The description is the PR body the product wrote, rendered: its
    // first markdown heading is a heading on the page.
    const firstHeading = /^#+ (.+)$/m.exec(published.body)![1];
    await page
      .getByRole('heading', { name: firstHeading.replace(/[`*]/g, '') })
      .first()
      .waitFor();
    const diff = await page.getByLabel('Diff').innerText();
    expect(diff).toContain('+++ b/requests/ml/chat.yaml');
    for (const file of published.files) {
      expect(diff).toContain(`b/${file}`);
    }
    await saveScreenshot(page, 'gpu-pull-request-review.png', temp);

    const merge = page.getByRole('button', { name: 'Merge into main' });
    await expect(merge.isEnabled()).resolves.toBe(true);
    await merge.click();
    await page
      .getByRole('status')
      .getByText(/^Merged into main as [0-9a-f]{7}\./)
      .waitFor({ timeout: 30_000 });

    // The bare repository's main now holds the request, by a merge commit.
    const git = simpleGit(remote.url);
    expect(
      (await git.raw(['log', '-1', '--format=%P', 'main'])).trim().split(' '),
    ).toEqual([published.baseSha, published.commit]);
    expect(await git.raw(['show', 'main:requests/ml/chat.yaml'])).toContain(
      'name: chat',
    );

    // The card: the allocation after the index refresh the merge started.
    const row = page.getByTestId('gpu-allocation-ml/chat');
    const deadline = Date.now() + 60_000;
    for (;;) {
      await page.goto(cardUrl);
      try {
        await row.waitFor({ timeout: 3_000 });
        break;
      } catch (error) {
        if (Date.now() > deadline) throw error;
      }
    }
    const cells = await row.locator('td').allInnerTexts();
    // Request (with its pool) | Per replica | Replicas | Cost / month
    expect(cells[2]).toBe('2');
    await expect(
      row.getByTestId('gpu-allocation-pool').innerText(),
    ).resolves.toBe(published.plan.pool.name);
    expect(await open.count()).toBe(0);
    await page.close();
  });
});
