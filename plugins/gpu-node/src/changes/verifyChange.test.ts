/**
 * verifyChange judges an existing workload patched in place (a plain
 * manifest no kustomization deploys) on the very document the change
 * edited, which the request flow passes it: not on a guess from the file's
 * content (a container without `image`, which the apps/v1 schema allows for
 * a webhook or an image updater to set, or a same-named workload of another
 * namespace in the same file).
 */
import { builtinCatalog } from '@gpu-gitops/plugin-gpu-common';
import { FsRepoTree } from '../repo/tree';
import { buildRequestChange } from './buildRequestChange';
import { mlRequest } from './__fixtures__/requests';
import {
  buildableRepoFiles as repoFiles,
  devCluster as cluster,
  removeTempRepo,
  writeTempRepo,
} from './__fixtures__/gitopsRepo';

// Real kustomize builds before and after on a shared two-core machine.
jest.setTimeout(300_000);

const deployment = (
  namespace: string,
  sidecarImage: string,
) => `apiVersion: apps/v1
kind: Deployment
metadata:
  name: embedder
  namespace: ${namespace}
spec:
  replicas: 2
  selector:
    matchLabels:
      app: embedder
  template:
    metadata:
      labels:
        app: embedder
    spec:
      containers:
        - name: sidecar${sidecarImage}
        - name: embedder
          image: ghcr.io/example/embedder:3.1.0
`;

async function landsOn(manifest: string) {
  const dir = await writeTempRepo({
    ...repoFiles,
    'plain/embedder.yaml': manifest,
  });
  try {
    const change = await buildRequestChange({
      tree: new FsRepoTree(dir),
      dir,
      request: mlRequest(
        'embedder',
        { model: 't4', sharing: 'exclusive', replicas: 2, vramGiB: 12 },
        {
          workload: {
            existing: {
              kind: 'Deployment',
              name: 'embedder',
              container: 'embedder',
            },
          },
        },
      ),
      cluster,
      catalog: builtinCatalog,
    });
    return [change.verification?.landsOn, change.plan.pool.name];
  } finally {
    await removeTempRepo(dir);
  }
}

describe('verifyChange on a workload patched in place', () => {
  it('judges a manifest whose sidecar leaves its image to a webhook', async () => {
    const [lands, pool] = await landsOn(deployment('ml', ''));
    expect(lands).toEqual([pool]);
  });

  it('judges the document the change edited, not a same-named workload of another namespace before it', async () => {
    const [lands, pool] = await landsOn(
      `${deployment('staging', '\n          image: ghcr.io/example/log-shipper:1.2.0')}---\n${deployment('ml', '\n          image: ghcr.io/example/log-shipper:1.2.0')}`,
    );
    expect(lands).toEqual([pool]);
  });
});
