import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { formatUsd } from '@gpu-gitops/plugin-gpu-common';
import { BareRemote, createBareRemote } from '../git/__testUtils__/bareRemote';
import { publishGpuRequest } from './publishGpuRequest';
import {
  catalog,
  cluster,
  gpuRequest,
  seedFiles,
} from './__testUtils__/fixtures';

describe('a resize, as its pull request shows it', () => {
  let remote: BareRemote;
  let cacheDir: string;
  beforeEach(async () => {
    remote = await createBareRemote(seedFiles);
    cacheDir = await fs.mkdtemp(path.join(os.tmpdir(), 'gpu-gitops-resize-'));
  });
  afterEach(async () => {
    await remote.cleanup();
    await fs.rm(cacheDir, { recursive: true, force: true });
  });

  const publish = (replicas: number) =>
    publishGpuRequest({
      request: gpuRequest('chat', { replicas, slicesPerGpu: 4 }),
      cluster,
      catalog,
      repoUrl: remote.url,
      cacheDir,
    });

  it("8 -> 2 replicas: before -> after in slices, nodes and money, and what it frees; the numbers are the plans'", async () => {
    const created = await publish(8);
    expect(created.plan.previous).toBeUndefined();
    expect(created.body).not.toContain('Before → after');
    await remote.git([
      'update-ref',
      'refs/heads/main',
      (await remote.branchSha(created.branch))!,
    ]);

    const resized = await publish(2);
    const { plan } = resized;
    const pool = plan.pool.name;
    const resource = plan.resourceName;
    // The "before" is the merged request, priced as its own plan priced it.
    expect(plan.previous).toEqual({
      pools: [
        {
          name: pool,
          resourceName: resource,
          units: 8,
          nodes: created.plan.nodes.expected,
          usdPerMonth: created.plan.cost.usdPerMonth,
        },
      ],
      usdPerMonth: created.plan.cost.usdPerMonth,
    });
    expect(created.plan.nodes.expected).toBe(2);
    expect(plan.nodes.expected).toBe(1);
    expect(plan.cost.marginalUsdPerMonth).toBeLessThan(0);
    expect(resized.body).toContain('### Before → after');
    expect(resized.body).toContain(
      `| Held | 8 × \`${resource}\` on \`${pool}\` | 2 × \`${resource}\` on \`${pool}\` |`,
    );
    expect(resized.body).toContain(`| Nodes of \`${pool}\` | 2 | 1 |`);
    expect(resized.body).toContain(
      `| Attributed per month | ${formatUsd(created.plan.cost.usdPerMonth)} | ${formatUsd(plan.cost.usdPerMonth)} |`,
    );
    const saved = -plan.cost.marginalUsdPerMonth;
    expect(resized.body).toContain(
      `Added to the bill: **${formatUsd(-saved)} per month** (marginal). The change frees 6 × \`${resource}\`, 1 node(s) of \`${pool}\`, ${formatUsd(saved)} per month.`,
    );
    // One node of the pool's machine is what it frees.
    expect(saved).toBeCloseTo(
      created.plan.cost.pool.usdPerMonth - plan.cost.pool.usdPerMonth,
      2,
    );
  });
});
