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
  type AllocationResponse,
} from '@gpu-gitops/plugin-gpu-common';
import { AllocationQueries } from '@gpu-gitops/plugin-gpu-backend/src/allocation/AllocationQueries';
import { createRouter } from '@gpu-gitops/plugin-gpu-backend/src/http/router';
import type { LiveAllocationData } from '@gpu-gitops/plugin-gpu-backend/src/http/routeContext';
import type { RepoIndex } from '@gpu-gitops/plugin-gpu-backend/src/repoIndex/RepoIndex';
import { mapCatalog } from './gpuRepo';

export async function loadAllocationApi(
  index: RepoIndex,
  options: {
    ratePerSecond: number;
    seconds: number;
    /** The workload (`app-<j>`) whose component the n-th request asks for. */
    pick(n: number): number;
    /** Live figures for the router; without, intent only. */
    live?: LiveAllocationData;
    /** Checks each answer (after its latency is taken); throw to fail the run. */
    check?(j: number, body: AllocationResponse): void;
  },
): Promise<number[]> {
  const cluster = resolveClusterProfile({ name: 'prod' });
  const router = await createRouter({
    httpAuth: mockServices.httpAuth(),
    catalog: mapCatalog(),
    snapshot: () => index.snapshot(),
    queries: new AllocationQueries(builtinCatalog),
    gpuCatalog: builtinCatalog,
    clusters: [cluster],
    defaultCluster: 'prod',
    ...(options.live ? { live: options.live } : {}),
  });
  const server = http.createServer(express().use(router));
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  const latencies: number[] = [];
  const { check } = options;
  const get = (j: number) =>
    new Promise<void>((resolve, reject) => {
      const start = performance.now();
      http
        .get(
          {
            host: '127.0.0.1',
            port,
            agent,
            path: `/allocation?entityRef=component:default/app-${j}`,
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
        .on('error', reject);
    });
  // Open loop: one request every 1000/rate ms for the time given, whatever the answers do.
  const total = options.ratePerSecond * options.seconds;
  const pending: Promise<void>[] = [];
  const began = performance.now();
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
    await Promise.all(pending);
  } finally {
    agent.destroy();
    await new Promise(resolve => server.close(resolve));
  }
  return latencies;
}
