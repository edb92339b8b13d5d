/**
 * The Release form says, before it is sent, what the release deletes and
 * what stays: Chromium on the plugin's dev app (the Release template's
 * GpuReleasePreview field) against the real scaffolder backend running the
 * real `gpu:gitops:release` action as a dry run over a repository where a
 * merged request created a Deployment and the team added a Service beside
 * it. The lists are the release's own: its deleted files are the files the
 * release pull request deletes, and the Service is named as staying.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { Entity } from '@backstage/catalog-model';
import {
  builtinCatalog,
  parseGpuRequest,
  resolveClusterProfile,
} from '@gpu-gitops/plugin-gpu-common';
import {
  publishGpuRelease,
  publishGpuRequest,
} from '@gpu-gitops/plugin-gpu-node';
import { simpleGit } from 'simple-git';
import { saveScreenshot } from './chromium';
import { startBrowserStack, type BrowserStack } from './browserStack';

jest.setTimeout(300_000);

const cluster = resolveClusterProfile({ name: 'dev' });

const chat: Entity = {
  apiVersion: 'backstage.io/v1alpha1',
  kind: 'Component',
  metadata: { name: 'chat', namespace: 'default' },
  spec: { type: 'service', lifecycle: 'production', owner: 'ml-platform' },
};

const SERVICE = `# Added by the team after the request.
apiVersion: v1
kind: Service
metadata:
  name: chat
  namespace: ml
spec:
  selector:
    app.kubernetes.io/name: chat
  ports:
    - port: 80
`;

describe('The Release form in Chromium (dev app, real scaffolder dry run)', () => {
  let stack: BrowserStack;
  let servicePath = '';

  beforeAll(async () => {
    stack = await startBrowserStack({
      tempPrefix: 'gpu-browser-release-',
      seed: async repo => {
        const published = await publishGpuRequest({
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
          repoUrl: repo.remote.url,
          forge: 'local',
          cacheDir: repo.publisherCache,
        });
        await repo.remote.merge(published.branch);
        // The team adds a Service beside the Deployment the request created.
        const deployment = published.files.find(f =>
          f.endsWith('/deployment.yaml'),
        )!;
        const folder = path.posix.dirname(deployment);
        servicePath = `${folder}/service.yaml`;
        const work = path.join(repo.remote.root, 'work');
        await fs.writeFile(path.join(work, servicePath), SERVICE);
        const kustomization = path.join(work, folder, 'kustomization.yaml');
        await fs.writeFile(
          kustomization,
          (await fs.readFile(kustomization, 'utf8')).replace(
            'resources:\n',
            'resources:\n  - service.yaml\n',
          ),
        );
        const git = simpleGit(work);
        await git.raw(['add', '-A']);
        await git.raw([
          '-c',
          'user.name=Team',
          '-c',
          'user.email=team@example.com',
          'commit',
          '--quiet',
          '-m',
          'chat: a Service',
        ]);
        await git.raw(['push', '--quiet', 'origin', 'main']);
      },
      entities: [chat],
      clusters: { default: 'dev', profiles: { dev: {} } },
      updatePullRequests: false,
      scaffolder: true,
    });
  });

  afterAll(async () => {
    await stack?.stop();
  });

  it('lists the files the release deletes (those its pull request deletes) and the Service that stays', async () => {
    const page = await stack.browser.newPage({
      viewport: { width: 1280, height: 900 },
    });
    await page.goto(
      `${stack.app.url}/gpu-dev?view=release&namespace=ml&name=chat`,
    );
    const deletes = page.getByRole('list', { name: 'Deletes' });
    await deletes.waitFor({ timeout: 120_000 });
    const stays = page.getByRole('list', { name: /^Stays/ });
    const shownDeletes = await deletes.getByRole('listitem').allInnerTexts();
    const shownStays = await stays.getByRole('listitem').allInnerTexts();
    await saveScreenshot(page, 'gpu-release-preview.png', stack.temp);

    // The release itself, as the template then opens it.
    const release = await publishGpuRelease({
      request: { namespace: 'ml', name: 'chat' },
      clusterProfile: () => cluster,
      catalog: builtinCatalog,
      repoUrl: stack.remote.url,
      forge: 'local',
      cacheDir: `${stack.temp}/release-cache`,
      dryRun: true,
    });
    const deletedByRelease = [
      ...release.diff!.matchAll(/^--- a\/(.+)\n\+\+\+ \/dev\/null$/gm),
    ].map(m => m[1]);
    expect(deletedByRelease).toContain('requests/ml/chat.yaml');
    expect(shownDeletes.sort()).toEqual(deletedByRelease.sort());
    expect(shownDeletes).not.toContain(servicePath);
    expect(shownStays).toEqual([`Service chat (${servicePath})`]);
    await page.getByText(`It ${release.plan.savings}`).waitFor();
    await page.close();
  });

  it("a request that is not merged: the form says why, in the action's words", async () => {
    const page = await stack.browser.newPage({
      viewport: { width: 1280, height: 900 },
    });
    await page.goto(
      `${stack.app.url}/gpu-dev?view=release&namespace=ml&name=nothing-here`,
    );
    const alert = page.getByRole('alert');
    await alert.waitFor({ timeout: 120_000 });
    expect(await alert.innerText()).toMatch(
      /^The release of ml\/nothing-here cannot be previewed: .*ml\/nothing-here is not in main of .*: no request of that name was ever merged there, or it was released already/,
    );
    await page.close();
  });
});
