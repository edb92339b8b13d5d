/**
 * The review walk on a workload the team wrote (issue 28's first finding: a
 * Change GPUs pull request told "replicas 3 → 1" while the form said "2
 * replicas now → 1" and its diff removed `replicas: 2`). The team's
 * Deployment says `replicas: 3` in its manifest and its kustomization patches
 * it to 2: what runs is the BUILT value, 2. It is requested into a GPU pool,
 * reviewed and merged, then changed to 1 through Change GPUs, then released;
 * the form's "now", the description's before → after, the diff's -/+ lines,
 * the card and the tab say the same at every step, and the release gives the
 * team its own 2 back. Chromium on the plugin's dev app
 * (the gpu-workload template's Workload and GPU fields) against the real gpu
 * backend and the local forge.
 */
import type { Entity } from '@backstage/catalog-model';
import {
  builtinCatalog,
  formatUsd,
  parseGpuRequest,
  resolveClusterProfile,
} from '@gpu-gitops/plugin-gpu-common';
import {
  publishGpuRelease,
  publishGpuRequest,
  type PublishGpuRequestResult,
} from '@gpu-gitops/plugin-gpu-node';
import type { Browser, Page } from 'playwright-core';
import { simpleGit } from 'simple-git';
import { saveScreenshot } from './chromium';
import type { DevAppServer } from './devAppServer';
import type { GitopsRemote } from './fixtureGitopsRemote';
import { startBrowserStack, type BrowserStack } from './browserStack';

jest.setTimeout(600_000);

const cluster = resolveClusterProfile({ name: 'dev' });

/** The fixture's recommender-api (test/fixtures/gitops-repo) runs `replicas: 3` as written. */
const WRITTEN_REPLICAS = 3;
/** The team's patch: what the cluster runs. */
const BUILT_REPLICAS = 2;

const REPLICAS_PATCH = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: recommender-api
  namespace: ml
spec:
  replicas: ${BUILT_REPLICAS}
`;

/** The team's kustomization: its resources, then `patches`. */
const kustomization = (
  patches: string,
) => `apiVersion: kustomize.config.k8s.io/v1beta1
kind: Kustomization
namespace: ml
resources:
  - deployment.yaml
patches:
${patches}`;

/** The two ways a team writes that patch: a file, or inline in its kustomization. */
const TEAM_PATCHES: [string, Record<string, string>][] = [
  [
    'a patch file',
    {
      'apps/ml/recommender-api/kustomization.yaml': kustomization(
        '  - path: replicas.yaml\n',
      ),
      'apps/ml/recommender-api/replicas.yaml': REPLICAS_PATCH,
    },
  ],
  [
    'an inline patch',
    {
      'apps/ml/recommender-api/kustomization.yaml': kustomization(
        `  - patch: |-\n${REPLICAS_PATCH.trimEnd().replace(/^/gm, '      ')}\n`,
      ),
    },
  ],
];

/** The request of the walk on the team's Deployment, with `replicas`. */
function recommenderRequest(replicas: number) {
  return parseGpuRequest({
    apiVersion: 'gpu.backstage.io/v1alpha1',
    kind: 'GpuRequest',
    metadata: { name: 'recommender-api', namespace: 'ml' },
    spec: {
      owner: 'group:default/ml-platform',
      gpu: { model: 'l4', sharing: 'time-slicing', replicas, vramGiB: 4 },
      workload: {
        existing: { kind: 'Deployment', name: 'recommender-api' },
      },
    },
  });
}

const recommender: Entity = {
  apiVersion: 'backstage.io/v1alpha1',
  kind: 'Component',
  metadata: {
    name: 'recommender-api',
    namespace: 'default',
    annotations: {
      'backstage.io/kubernetes-id': 'recommender-api',
      'backstage.io/kubernetes-namespace': 'ml',
    },
  },
  spec: { type: 'service', lifecycle: 'production', owner: 'ml-platform' },
};

/** Reloads `url` until `ready` holds (the backend lists and indexes on its own time). */
async function reloadUntil(
  page: Page,
  url: string,
  ready: () => Promise<boolean>,
  what: () => string,
): Promise<void> {
  const deadline = Date.now() + 90_000;
  for (;;) {
    await page.goto(url);
    try {
      if (await ready()) return;
    } catch {
      // Not rendered yet: reload.
    }
    if (Date.now() > deadline) throw new Error(`never shown: ${what()}`);
    await page.waitForTimeout(1_000);
  }
}

/**
 * The gpu-workload template's Workload and GPU fields on the team's
 * Deployment, the GPU box filled with `replicas`: the container picker's
 * "now" and the plan preview's line on the existing workload.
 */
async function formSays(
  page: Page,
  appUrl: string,
  replicas: number,
): Promise<{ now: string; existing: string }> {
  await page.goto(
    `${appUrl}/gpu-dev?view=containers&namespace=ml&kind=Deployment&name=recommender-api`,
  );
  const now = page.getByTestId('gpu-workload-replicas');
  await now.waitFor({ timeout: 60_000 });
  await page.getByLabel('GPU model').click();
  await page.getByRole('option', { name: /^NVIDIA L4 — / }).click();
  await page.getByRole('listbox').waitFor({ state: 'detached' });
  await page.getByLabel('Sharing mode').click();
  await page.getByRole('option', { name: /^Time-slicing/ }).click();
  await page.getByRole('listbox').waitFor({ state: 'detached' });
  await page.getByRole('spinbutton', { name: 'Replicas' }).fill(`${replicas}`);
  const answered = page.waitForResponse(
    r =>
      new URL(r.url()).pathname.endsWith('/api/gpu/plan') &&
      r.request().postDataJSON().spec.gpu.vramGiB === 4 &&
      r.request().postDataJSON().spec.gpu.replicas === replicas,
  );
  await page
    .getByRole('spinbutton', { name: 'GPU memory per replica (GiB)' })
    .fill('4');
  await answered;
  const preview = page.getByTestId('gpu-plan-preview');
  const line = preview.getByText(/^Existing Deployment recommender-api: /);
  await line.waitFor({ timeout: 30_000 });
  return { now: await now.innerText(), existing: await line.innerText() };
}

const WORKLOAD_FOLDER = 'apps/ml/recommender-api/';

/**
 * The `replicas:` lines of the diff's minus and plus sides in the
 * workload's folder (the request file and the device-plugin config have
 * `replicas:` of their own).
 */
function workloadReplicasLines(diff: string): {
  removed: number[];
  added: number[];
} {
  const workloadFiles = diff
    .split(/^(?=--- )/m)
    .filter(file =>
      /^(?:--- a\/|\+\+\+ b\/)(.+)$/gm
        .exec(file)?.[1]
        ?.startsWith(WORKLOAD_FOLDER),
    )
    .join('');
  const counts = (sign: string) =>
    [
      ...workloadFiles.matchAll(
        new RegExp(`^\\${sign}\\s+replicas: (\\d+)$`, 'gm'),
      ),
    ].map(m => Number(m[1]));
  return { removed: counts('-'), added: counts('+') };
}

describe.each(TEAM_PATCHES)(
  'Change GPUs of a workload the team wrote (its replicas set by %s), in Chromium (dev app, real gpu backend, local forge)',
  (_form, teamPatch) => {
    let temp: string;
    let remote: GitopsRemote;
    let stack: BrowserStack;
    let app: DevAppServer;
    let browser: Browser;

    beforeAll(async () => {
      stack = await startBrowserStack({
        tempPrefix: 'gpu-browser-existing-',
        seed: async repo => {
          await repo.remote.commit(
            teamPatch,
            'recommender-api: two replicas while traffic is low',
          );
        },
        entities: [recommender],
        clusters: { default: 'dev', profiles: { dev: {} } },
        updatePullRequests: false,
      });
      ({ temp, remote, app, browser } = stack);
    });

    afterAll(async () => {
      await stack?.stop();
    });

    /** Opens the pull request from the card and merges it; returns its page's text and diff as shown. */
    async function reviewAndMerge(
      page: Page,
      published: { title: string; branch: string },
    ): Promise<{ shown: string; diff: string }> {
      const cardUrl = `${app.url}/gpu-dev?entity=component:default/recommender-api`;
      const link = page
        .getByRole('list', { name: 'Open GPU pull requests' })
        .getByRole('link', { name: published.title });
      await reloadUntil(
        page,
        cardUrl,
        async () => {
          await link.waitFor({ timeout: 3_000 });
          return true;
        },
        () => `the open pull request "${published.title}" on the card`,
      );
      await link.click();
      await page.waitForURL(
        `${app.url}/gpu/pull-requests/${published.branch.replace(/^gpu\//, '')}`,
      );
      await page
        .getByRole('heading', { name: published.title })
        .waitFor({ timeout: 30_000 });
      // The description's markdown renders lazily, after the heading.
      await page
        .getByRole('region', { name: 'Description' })
        .locator('p, li, table')
        .first()
        .waitFor({ timeout: 30_000 });
      const shown = await page.locator('body').innerText();
      const diff = await page.getByLabel('Diff').innerText();
      await page.getByRole('button', { name: 'Merge into main' }).click();
      await page
        .getByRole('status')
        .getByText(/^Merged into main as [0-9a-f]{7}\./)
        .waitFor({ timeout: 30_000 });
      return { shown, diff };
    }

    /** The card's row once the index has read the merge: its cells. */
    async function cardRow(page: Page, replicas: number): Promise<string[]> {
      const row = page.getByTestId('gpu-allocation-ml/recommender-api');
      let cells: string[] = [];
      await reloadUntil(
        page,
        `${app.url}/gpu-dev?entity=component:default/recommender-api`,
        async () => {
          await row.waitFor({ timeout: 3_000 });
          cells = await row.locator('td').allInnerTexts();
          // Request (with its pool) | Per replica | Replicas | Cost / month
          return cells[2] === `${replicas}`;
        },
        () =>
          `${replicas} replicas on the card (it shows ${cells.join(' | ')})`,
      );
      return cells;
    }

    /** The GPU tab's sentence on this component's share of `published`'s pool. */
    async function tabSays(
      page: Page,
      published: PublishGpuRequestResult,
    ): Promise<string> {
      await page.goto(
        `${app.url}/gpu-dev?entity=component:default/recommender-api&view=tab`,
      );
      const pool = page.getByTestId(`gpu-pool-${published.plan.pool.name}`);
      await pool.waitFor({ timeout: 30_000 });
      return pool.innerText();
    }

    it('the form, the description, the diff, the card and the tab agree on the built replicas at every step', async () => {
      const page = await browser.newPage({
        viewport: { width: 1280, height: 900 },
      });

      // Before any request: the form reads the count the cluster runs, the
      // patched 2, never the manifest's 3.
      const asked = await formSays(page, app.url, BUILT_REPLICAS);
      expect(asked.now).toBe(`${BUILT_REPLICAS} replicas now`);
      expect(asked.existing).toContain(`: ${BUILT_REPLICAS} replicas now (`);
      expect(asked.existing).not.toContain(`${WRITTEN_REPLICAS} replicas`);

      // The request keeps the count: the description and the diff leave it.
      const request = await publishGpuRequest({
        request: recommenderRequest(BUILT_REPLICAS),
        cluster,
        catalog: builtinCatalog,
        repoUrl: remote.url,
        forge: 'local',
        cacheDir: `${temp}/request-cache`,
      });
      expect(request.body).not.toMatch(/replicas \d+ →/);
      const requestPage = await reviewAndMerge(page, request);
      expect(requestPage.shown).not.toMatch(/replicas \d+ →/);
      expect(workloadReplicasLines(requestPage.diff)).toEqual({
        removed: [],
        added: [],
      });
      const cells = await cardRow(page, BUILT_REPLICAS);
      const monthly = formatUsd(request.plan.cost.usdPerMonth);
      expect(cells[3]).toContain(monthly);
      expect(await tabSays(page, request)).toContain(
        `This component: ${BUILT_REPLICAS * request.plan.resourcePerReplica} ${request.plan.resourceName}, ${monthly} per month`,
      );

      // Change GPUs: the form's now is the merged, built count (the card's).
      const changeAsked = await formSays(page, app.url, 1);
      expect(changeAsked.now).toBe(`${cells[2]} replicas now`);
      expect(changeAsked.existing).toContain(
        `: ${cells[2]} replicas now → 1 requested (`,
      );
      await saveScreenshot(page, 'gpu-change-existing-form.png', temp);

      // The change's description says that count before → 1, and so does its diff.
      const change = await publishGpuRequest({
        request: recommenderRequest(1),
        cluster,
        catalog: builtinCatalog,
        repoUrl: remote.url,
        forge: 'local',
        cacheDir: `${temp}/change-cache`,
      });
      expect(change.body).toContain(`**replicas ${cells[2]} → 1**`);
      expect(change.body).toContain(
        `| Attributed per month | ${monthly} | ${formatUsd(change.plan.cost.usdPerMonth)} |`,
      );
      const changePage = await reviewAndMerge(page, change);
      expect(changePage.shown).toContain(`replicas ${cells[2]} → 1`);
      expect(changePage.shown).not.toContain(`replicas ${WRITTEN_REPLICAS} →`);
      const lines = workloadReplicasLines(changePage.diff);
      expect(lines.added).toEqual([1]);
      // What the diff takes away, if it shows a count, is the form's now.
      for (const removed of lines.removed) expect(`${removed}`).toBe(cells[2]);

      // After the merge: card, tab and form say 1.
      const changedCells = await cardRow(page, 1);
      const changeMonthly = formatUsd(change.plan.cost.usdPerMonth);
      expect(changedCells[3]).toContain(changeMonthly);
      expect(await tabSays(page, change)).toContain(
        `This component: ${change.plan.resourcePerReplica} ${change.plan.resourceName}, ${changeMonthly} per month`,
      );
      expect((await formSays(page, app.url, 1)).now).toBe('1 replica now');

      // Release: the product's patch goes, the team's stays, and the team's
      // count runs again — on the form, with the card empty.
      const release = await publishGpuRelease({
        request: { namespace: 'ml', name: 'recommender-api' },
        clusterProfile: () => cluster,
        catalog: builtinCatalog,
        repoUrl: remote.url,
        forge: 'local',
        cacheDir: `${temp}/release-cache`,
      });
      await reviewAndMerge(page, release);
      // Main holds again, byte for byte, what the team wrote.
      const main = simpleGit(remote.url);
      for (const [file, text] of Object.entries(teamPatch)) {
        expect(await main.raw(['show', `main:${file}`])).toBe(text);
      }
      await reloadUntil(
        page,
        `${app.url}/gpu-dev?entity=component:default/recommender-api`,
        async () => {
          await page.getByText('No GPUs requested').waitFor({ timeout: 3_000 });
          return true;
        },
        () => 'an empty card after the release',
      );
      expect((await formSays(page, app.url, BUILT_REPLICAS)).now).toBe(
        `${BUILT_REPLICAS} replicas now`,
      );
      await page.close();
    });
  },
);
