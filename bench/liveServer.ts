/**
 * The live-data benchmark's server, run in a worker thread: the index of
 * the generated repository and `GET /allocation` twice, with intent only
 * and with refreshed live figures. In its own thread the client's clock
 * and deadline keep running while a slow route holds the server's event
 * loop, and the run ends by terminating the worker, not by waiting out
 * every queued request.
 */
import path from 'node:path';
import { parentPort, Worker, workerData } from 'node:worker_threads';
import {
  builtinCatalog,
  resolveClusterProfile,
  type LiveDataStatus,
} from '@gpu-gitops/plugin-gpu-common';
import { GitFetchSource } from '@gpu-gitops/plugin-gpu-backend/src/repoIndex/gitSnapshot';
import { RepoIndex } from '@gpu-gitops/plugin-gpu-backend/src/repoIndex/RepoIndex';
import { LiveData } from '@gpu-gitops/plugin-gpu-backend/src/utilization/liveData';
import { serveAllocationApi } from './allocationLoad';

export interface LiveServerInput {
  bare: string;
  cacheDir: string;
  prometheusUrl: string;
  window: string;
  /** The time every refresh asks at (seconds). */
  endSeconds: number;
}

export interface LiveServerReady {
  workloads: number;
  status: LiveDataStatus;
  intentPort: number;
  livePort: number;
}

/** The gpu backend's index of the generated repository (cluster `prod`), built once. */
export async function repositoryIndex(
  bare: string,
  cacheDir: string,
): Promise<RepoIndex> {
  const index = new RepoIndex(
    {
      clusters: [resolveClusterProfile({ name: 'prod' })],
      defaultCluster: 'prod',
      catalog: builtinCatalog,
      stateFile: path.join(cacheDir, 'index-state.json'),
    },
    new GitFetchSource({ repoUrl: bare, baseBranch: 'main', cacheDir }),
  );
  await index.refresh();
  return index;
}

async function serve(input: LiveServerInput): Promise<LiveServerReady> {
  const index = await repositoryIndex(input.bare, input.cacheDir);
  const live = new LiveData(
    {
      window: input.window,
      refresh: { minutes: 5 },
      targets: [
        { cluster: 'prod', baseUrl: input.prometheusUrl, timeoutMs: 120_000 },
      ],
    },
    () => new Date(input.endSeconds * 1000),
  );
  const [status] = await live.refresh();
  const intent = await serveAllocationApi(index);
  const withLive = await serveAllocationApi(index, live);
  return {
    workloads: index.snapshot().workloads.length,
    status,
    intentPort: intent.port,
    livePort: withLive.port,
  };
}

/** Starts the worker; resolves once both servers listen. */
export function startLiveServer(
  input: LiveServerInput,
): Promise<{ ready: LiveServerReady; stop(): Promise<void> }> {
  const worker = new Worker(
    // The worker runs TypeScript through the same transform as the bench.
    `require(${JSON.stringify(require.resolve('@backstage/cli-node/config/nodeTransform.cjs'))});
     require(${JSON.stringify(__filename)});`,
    { eval: true, workerData: input },
  );
  return new Promise((resolve, reject) => {
    worker.once('error', reject);
    worker.once('exit', code =>
      reject(new Error(`live server exited (${code})`)),
    );
    worker.once(
      'message',
      (message: { ready?: LiveServerReady; error?: string }) => {
        if (message.error) {
          void worker.terminate();
          reject(new Error(message.error));
          return;
        }
        resolve({
          ready: message.ready!,
          stop: async () => {
            await worker.terminate();
          },
        });
      },
    );
  });
}

if (parentPort && workerData) {
  const port = parentPort;
  serve(workerData as LiveServerInput).then(
    ready => port.postMessage({ ready }),
    error => port.postMessage({ error: String(error?.stack ?? error) }),
  );
}
