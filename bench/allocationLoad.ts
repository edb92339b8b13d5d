/**
 * `GET /allocation` of the real router over an index, served on 127.0.0.1
 * and asked at a fixed rate for a bounded time (open loop), so the latency
 * figures of different benchmarks are taken the same way.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { mockServices } from '@backstage/backend-test-utils';
import {
  builtinCatalog,
  resolveClusterProfile,
  type ClusterProfile,
} from '@gpu-gitops/plugin-gpu-common';
import { AllocationQueries } from '@gpu-gitops/plugin-gpu-backend/src/allocation/AllocationQueries';
import {
  preparePoolsPages,
  type PoolsPagePreparation,
} from '@gpu-gitops/plugin-gpu-backend/src/http/poolsPagePreparation';
import { createRouter } from '@gpu-gitops/plugin-gpu-backend/src/http/router';
import type { LiveAllocationData } from '@gpu-gitops/plugin-gpu-backend/src/http/routeContext';
import type { RepoIndex } from '@gpu-gitops/plugin-gpu-backend/src/repoIndex/RepoIndex';
import { mapCatalog, WORKLOADS } from './gpuRepo';
import { formatMs } from './stats';

export interface AllocationServer {
  port: number;
  /** The GPU page's preparation after each refresh (`preparePoolsPages`). */
  preparation: PoolsPagePreparation;
  close(): Promise<void>;
}

/** The real router over the index (and live figures, if given) on a free port. */
export async function serveAllocationApi(
  index: RepoIndex,
  live?: LiveAllocationData,
  repository: { clusters: ClusterProfile[]; workloads: number } = {
    clusters: [resolveClusterProfile({ name: 'prod' })],
    workloads: WORKLOADS,
  },
): Promise<AllocationServer> {
  const queries = new AllocationQueries(builtinCatalog);
  // As the plugin mounts it (wiring/mountRoutes.ts): the GPU page prepared
  // after each refresh of the index.
  const preparation = preparePoolsPages({
    queries,
    snapshot: () => index.snapshot(),
    onSnapshot: listener => index.onSnapshot(listener),
  });
  const router = await createRouter({
    httpAuth: mockServices.httpAuth(),
    catalog: mapCatalog(repository.workloads),
    snapshot: () => index.snapshot(),
    queries,
    gpuCatalog: builtinCatalog,
    clusters: repository.clusters,
    defaultCluster: repository.clusters[0].name,
    ...(live ? { live } : {}),
  });
  const server = http.createServer(express().use(router));
  // Sockets a burst opened may sit idle in the agent's pool for seconds;
  // past Node's 5 s keep-alive timeout the server would reset one just as
  // it is reused, failing a request for the harness's sake, not the route's.
  server.keepAliveTimeout = 120_000;
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    preparation,
    close: async () => {
      preparation.stop();
      await preparation.settled();
      await new Promise<void>(resolve => server.close(() => resolve()));
    },
  };
}

export interface LoadOptions {
  ratePerSecond: number;
  seconds: number;
  /** The workload (`app-<j>`) whose component the n-th request asks for. */
  pick(n: number): number;
  /** The route asked (default `allocation`): `right-size` runs the planner. */
  route?: 'allocation' | 'right-size';
  /** Checks each answer (after its latency is taken); throw to fail the run. */
  check?(j: number, body: unknown): void;
  /**
   * Stop waiting this long after the first request; what has not answered
   * by then is counted, not timed. Without, every answer is awaited.
   */
  deadlineMs?: number;
}

/** The open-loop load against a server on 127.0.0.1:`port`. */
export async function fireAllocationLoad(
  port: number,
  options: LoadOptions,
): Promise<{ latencies: number[]; unanswered: number }> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  const latencies: number[] = [];
  const { check, route = 'allocation' } = options;
  const get = (j: number) =>
    new Promise<void>((resolve, reject) => {
      const start = performance.now();
      http
        .get(
          {
            host: '127.0.0.1',
            port,
            agent,
            path: `/${route}?entityRef=component:default/app-${j}`,
          },
          res => {
            const chunks: Buffer[] = [];
            // Without a check the body is drained unread, as a load tool would.
            if (check) res.on('data', chunk => chunks.push(chunk));
            else res.resume();
            res.on('end', () => {
              if (res.statusCode !== 200) {
                reject(new Error(`status ${res.statusCode}`));
              }
              latencies.push(performance.now() - start);
              try {
                check?.(j, JSON.parse(Buffer.concat(chunks).toString('utf8')));
                resolve();
              } catch (error) {
                reject(error);
              }
            });
          },
        )
        .on('error', error =>
          reject(
            new Error(
              `GET /${route} of app-${j} after ${formatMs(performance.now() - start)}: ${error.message}`,
            ),
          ),
        );
    });
  // Open loop: one request every 1000/rate ms for the time given, whatever the answers do.
  const total = options.ratePerSecond * options.seconds;
  const pending: Promise<void>[] = [];
  const began = performance.now();
  let timer: NodeJS.Timeout | undefined;
  try {
    for (let n = 0; n < total; n++) {
      const due = began + (n * 1000) / options.ratePerSecond;
      const wait = due - performance.now();
      if (wait > 0) await new Promise(r => setTimeout(r, wait));
      const request = get(options.pick(n));
      // Failures surface in Promise.all below, not as an unhandled rejection
      // that would end the process before the callers' clean-up runs.
      request.catch(() => {});
      pending.push(request);
    }
    const answered = Promise.all(pending);
    if (options.deadlineMs === undefined) await answered;
    else {
      await Promise.race([
        answered,
        new Promise<void>(resolve => {
          timer = setTimeout(
            resolve,
            Math.max(0, began + options.deadlineMs! - performance.now()),
          );
        }),
      ]);
    }
    return { latencies: [...latencies], unanswered: total - latencies.length };
  } finally {
    clearTimeout(timer);
    agent.destroy();
  }
}

/** Serves the index in this process and fires the load at it; the latencies. */
export async function loadAllocationApi(
  index: RepoIndex,
  options: LoadOptions & { live?: LiveAllocationData },
): Promise<number[]> {
  const server = await serveAllocationApi(index, options.live);
  try {
    return (await fireAllocationLoad(server.port, options)).latencies;
  } finally {
    await server.close();
  }
}
