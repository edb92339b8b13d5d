/**
 * Review in the browser, on the local forge: a published (not merged) GPU
 * request shows on its component's card as an open pull request; its link
 * opens the app's review page with the description the product wrote and
 * the diff; Merge merges it into main of the real bare repository, and the
 * card shows the allocation once the backend's index has read main again;
 * then its release is reviewed and merged the same way, and the card empties.
 * Chromium on the plugin's dev app against the real gpu backend, with the
 * permission framework as a default install has it (no policy: allowed).
 */
import type { Entity } from '@backstage/catalog-model';
import type { AddressInfo } from 'node:net';
import {
  builtinCatalog,
  centsToUsd,
  formatGpuEquivalents,
  formatReplicaGpuShare,
  formatUsd,
  type PoolsResponse,
  usdToCents,
  parseGpuRequest,
  resolveClusterProfile,
} from '@gpu-gitops/plugin-gpu-common';
import {
  publishGpuRelease,
  publishGpuRequest,
  type PublishGpuRequestResult,
} from '@gpu-gitops/plugin-gpu-node';
import type { Browser } from 'playwright-core';
import { simpleGit } from 'simple-git';
import { saveScreenshot } from './chromium';
import type { DevAppServer } from './devAppServer';
import type { GitopsRemote } from './fixtureGitopsRemote';
import { startBrowserStack, type BrowserStack } from './browserStack';

jest.setTimeout(300_000);

const cluster = resolveClusterProfile({ name: 'dev' });

/** The request of the walk, with `replicas` (2 at first; Change GPUs asks 1). */
function chatRequest(replicas: number) {
  return parseGpuRequest({
    apiVersion: 'gpu.backstage.io/v1alpha1',
    kind: 'GpuRequest',
    metadata: { name: 'chat', namespace: 'ml' },
    spec: {
      owner: 'group:default/ml-platform',
      gpu: { model: 'l4', sharing: 'time-slicing', replicas, vramGiB: 4 },
      workload: { image: 'ghcr.io/acme/chat:1.0.0' },
    },
  });
}

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
  let stack: BrowserStack;
  let app: DevAppServer;
  let browser: Browser;
  let published: PublishGpuRequestResult;

  beforeAll(async () => {
    stack = await startBrowserStack({
      tempPrefix: 'gpu-browser-review-',
      seed: async repo => {
        published = await publishGpuRequest({
          request: chatRequest(2),
          cluster,
          catalog: builtinCatalog,
          repoUrl: repo.remote.url,
          forge: 'local',
          cacheDir: repo.publisherCache,
        });
      },
      entities: [chat],
      clusters: { default: 'dev', profiles: { dev: {} } },
      updatePullRequests: false,
      // The Release form's preview is the scaffolder's dry run of the release.
      scaffolder: true,
    });
    ({ temp, remote, app, browser } = stack);
  });

  afterAll(async () => {
    await stack?.stop();
  });

  it('the card lists the open pull request; its page shows the description and diff; Merge merges into main and the card shows the allocation; Change GPUs and Release are reviewed the same way', async () => {
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
    // The review page shows the description's cost: the plan's.
    await page
      .getByText(formatUsd(published.plan.cost.usdPerMonth))
      .first()
      .waitFor();
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

    // Every figure of the request from the one plan: the card's cost is
    // the plan's and the description's, its replicas are the diff's, and
    // the GPU tab (only its pool) and the GPU page (its team) say the same.
    const monthly = formatUsd(published.plan.cost.usdPerMonth);
    expect(cells[3]).toContain(monthly);
    expect(published.body).toContain(monthly);
    expect(diff).toMatch(new RegExp(`\\+\\s+replicas: ${cells[2]}\\b`));
    await page.goto(`${cardUrl}&view=tab`);
    const tabPool = page.getByTestId(`gpu-pool-${published.plan.pool.name}`);
    await tabPool.waitFor({ timeout: 30_000 });
    expect(await page.locator('[data-testid^="gpu-pool-"]').count()).toBe(1);
    const held = 2 * published.plan.resourcePerReplica;
    expect(await tabPool.innerText()).toContain(
      `This component: ${held} ${published.plan.resourceName}, ${monthly} per month`,
    );
    // The bar's sentence counts the pool's nodes: held of what they offer, and free.
    expect(await tabPool.getByTestId('pool-usage').innerText()).toMatch(
      new RegExp(
        `^\\d+ of \\d+ ${published.plan.resourceName.replace(/\./g, '\\.')} held on \\d+ nodes?, \\d+ free`,
      ),
    );
    // The title in GPU equivalents says what the card, the tab and the diff
    // say: its units are the replicas (the diff's) × the units per replica
    // (the card's and the diff's limit), which the tab says the component
    // holds; its GPUs are the replicas × the share of a GPU the card shows.
    const share = published.plan.perReplica.gpuShare;
    expect(cells[0]).toContain(
      `time-slicing · ${published.plan.resourcePerReplica}× ${published.plan.resourceName}`,
    );
    expect(cells[1]).toContain(formatReplicaGpuShare({ gpuShare: share }));
    expect(diff).toMatch(
      new RegExp(
        `^\\+\\s+${published.plan.resourceName.replace(/\./g, '\\.')}: "?${published.plan.resourcePerReplica}"?$`,
        'm',
      ),
    );
    expect(published.title).toMatch(
      new RegExp(
        `^GPU: ml/chat — ${formatGpuEquivalents(Number(cells[2]) * share).replace(/\./g, '\\.')} — ${held} time-slices? of (an L4|L4s)$`,
      ),
    );
    await page.goto(`${app.url}/gpu`);
    const team = page
      .getByTestId('gpu-overview-teams')
      .getByRole('row')
      .filter({ hasText: 'group:default/ml-platform' });
    await team.waitFor({ timeout: 30_000 });
    // The team's cost is the sum of its requests' (this one and those it
    // held before, catalogued or not), as the backend attributes them.
    const port = (stack.backend.server.address() as AddressInfo).port;
    const pools = (await (
      await fetch(`http://127.0.0.1:${port}/api/gpu/pools`)
    ).json()) as PoolsResponse;
    const teamConsumers = pools.pools
      .flatMap(p => p.consumers)
      .filter(c => c.owner === 'group:default/ml-platform');
    expect(teamConsumers.map(c => c.usdPerMonth)).toContain(
      published.plan.cost.usdPerMonth,
    );
    const teamCents = teamConsumers.reduce(
      (sum, c) => sum + usdToCents(c.usdPerMonth),
      0,
    );
    expect(await team.innerText()).toContain(
      `\t${teamConsumers.length}\t${formatUsd(centsToUsd(teamCents))}\t`,
    );
    await page.goto(cardUrl);
    await row.waitFor({ timeout: 30_000 });
    // The card's header: the title's GPU equivalents and the cost.
    const titleGpus = formatGpuEquivalents(Number(cells[2]) * share).replace(
      / GPUs?$/,
      '',
    );
    await page
      .getByText(`${titleGpus} GPU equivalents, ${monthly} per month`)
      .waitFor();

    // The merged request's row links to Change GPUs and to Release.
    expect(
      new URL(
        (await row.getByTestId('gpu-allocation-release').getAttribute('href'))!,
        app.url,
      ).pathname,
    ).toBe('/create/templates/default/gpu-release');
    await row.getByTestId('gpu-allocation-change').waitFor();
    await saveScreenshot(page, 'gpu-allocation-card-links.png', temp);

    // Change GPUs: the link opens the form as merged (2 replicas), the change
    // (what the gpu-workload template's action opens from it, 2 → 1) is
    // reviewed on the same page: its diff's before is the merged value, its
    // figures are the plan's, and after the merge the card and tab say them.
    const changeForm = JSON.parse(
      new URL(
        (await row.getByTestId('gpu-allocation-change').getAttribute('href'))!,
        app.url,
      ).searchParams.get('formData')!,
    );
    expect(changeForm.gpu.replicas).toBe(Number(cells[2]));
    const change = await publishGpuRequest({
      request: chatRequest(1),
      cluster,
      catalog: builtinCatalog,
      repoUrl: remote.url,
      forge: 'local',
      cacheDir: `${temp}/change-cache`,
    });
    const changeLink = open.getByRole('link', { name: change.title });
    const changeListed = Date.now() + 60_000;
    for (;;) {
      await page.goto(cardUrl);
      try {
        await changeLink.waitFor({ timeout: 3_000 });
        break;
      } catch (error) {
        if (Date.now() > changeListed) throw error;
      }
    }
    await changeLink.click();
    await page.waitForURL(`${app.url}/gpu/pull-requests/ml-chat`);
    await page
      .getByRole('heading', { name: change.title })
      .waitFor({ timeout: 30_000 });
    const changeDiff = await page.getByLabel('Diff').innerText();
    // The before is the repository as merged: the card's and the form's 2.
    expect(changeDiff).toMatch(new RegExp(`^-\\s+replicas: ${cells[2]}$`, 'm'));
    expect(changeDiff).toMatch(/^\+\s+replicas: 1$/m);
    const changeMonthly = formatUsd(change.plan.cost.usdPerMonth);
    // The description's before is the merged request's cost on the card.
    expect(change.body).toContain(
      `| Attributed per month | ${monthly} | ${changeMonthly} |`,
    );
    await page.getByRole('heading', { name: 'Before → after' }).waitFor();
    // The change's title: 1 replica, its units and GPU equivalents.
    expect(change.title).toMatch(
      new RegExp(
        `^GPU: ml/chat — ${formatGpuEquivalents(change.plan.perReplica.gpuShare).replace(/\./g, '\\.')} — ${change.plan.resourcePerReplica} time-slices? of (an L4|L4s)$`,
      ),
    );
    await page.getByRole('button', { name: 'Merge into main' }).click();
    await page
      .getByRole('status')
      .getByText(/^Merged into main as [0-9a-f]{7}\./)
      .waitFor({ timeout: 30_000 });
    const changedOnCard = Date.now() + 60_000;
    let changedCells: string[] = [];
    for (;;) {
      await page.goto(cardUrl);
      try {
        await row.waitFor({ timeout: 3_000 });
        changedCells = await row.locator('td').allInnerTexts();
        if (changedCells[2] === '1') break;
      } catch (error) {
        if (Date.now() > changedOnCard) throw error;
      }
      if (Date.now() > changedOnCard) {
        throw new Error(`the card still shows ${changedCells[2]} replicas`);
      }
    }
    expect(changedCells[3]).toContain(changeMonthly);
    await page.goto(`${cardUrl}&view=tab`);
    const changedPool = page.getByTestId(`gpu-pool-${change.plan.pool.name}`);
    await changedPool.waitFor({ timeout: 30_000 });
    expect(await changedPool.innerText()).toContain(
      `This component: ${change.plan.resourcePerReplica} ${change.plan.resourceName}, ${changeMonthly} per month`,
    );

    // The Release form, before it is sent: the files it deletes and what stays.
    await page.goto(`${app.url}/gpu-dev?view=release&namespace=ml&name=chat`);
    const previewDeletes = page.getByRole('list', { name: 'Deletes' });
    await previewDeletes.waitFor({ timeout: 120_000 });
    const previewed = (
      await previewDeletes.getByRole('listitem').allInnerTexts()
    ).sort();
    await page.goto(cardUrl);
    await row.waitFor({ timeout: 30_000 });

    // Its release (what the Release template's action opens) is reviewed on
    // the same page: the body says what goes and what it saves, the diff
    // deletes the request, and merging it empties the card again.
    const release = await publishGpuRelease({
      request: { namespace: 'ml', name: 'chat' },
      clusterProfile: () => cluster,
      catalog: builtinCatalog,
      repoUrl: remote.url,
      forge: 'local',
      cacheDir: `${temp}/release-cache`,
    });
    // The backend lists open pull requests for a few seconds from its cache.
    const releaseLink = open.getByRole('link', { name: release.title });
    const listed = Date.now() + 60_000;
    for (;;) {
      await page.goto(cardUrl);
      try {
        await releaseLink.waitFor({ timeout: 3_000 });
        break;
      } catch (error) {
        if (Date.now() > listed) throw error;
      }
    }
    await releaseLink.click();
    await page.waitForURL(`${app.url}/gpu/pull-requests/release-ml-chat`);
    await page
      .getByRole('heading', { name: 'Release GPUs of ml/chat' })
      .waitFor({ timeout: 30_000 });
    // What it saves, or why it saves no money, in the plan's own words.
    await page.getByText(`It ${release.plan.savings}`).first().waitFor();
    const releaseDiff = await page.getByLabel('Diff').innerText();
    expect(releaseDiff).toContain('--- a/requests/ml/chat.yaml');
    expect(releaseDiff).toContain('+++ /dev/null');
    // What the form said it deletes is what the pull request deletes.
    const deletedByPullRequest = [
      ...releaseDiff.matchAll(/^--- a\/(.+)\n\+\+\+ \/dev\/null$/gm),
    ]
      .map(m => m[1])
      .sort();
    expect(previewed).toEqual(deletedByPullRequest);
    await saveScreenshot(page, 'gpu-release-pull-request.png', temp);
    await page.getByRole('button', { name: 'Merge into main' }).click();
    await page
      .getByRole('status')
      .getByText(/^Merged into main as [0-9a-f]{7}\./)
      .waitFor({ timeout: 30_000 });
    const emptied = Date.now() + 60_000;
    for (;;) {
      await page.goto(cardUrl);
      try {
        await page.getByText('No GPUs requested').waitFor({ timeout: 3_000 });
        break;
      } catch (error) {
        if (Date.now() > emptied) throw error;
      }
    }
    await page.close();
  });
});
