import { builtinCatalog } from '../catalog/builtin';
import { resolveClusterProfile } from '../cluster/schema';
import { plan } from '../planner/plan';
import { parseGpuRequest } from '../request/schema';
import { describeCost } from './costText';
import { formatPlanText } from './planText';

const migRequest = parseGpuRequest({
  kind: 'GpuRequest',
  metadata: { name: 'bert', namespace: 'research' },
  spec: {
    owner: 'group:default/research',
    gpu: { model: 'a100-40gb', sharing: 'mig', replicas: 4, vramGiB: 36 },
    workload: { image: 'ghcr.io/acme/bert:1' },
  },
});

describe('formatPlanText', () => {
  const p = plan(migRequest, builtinCatalog, resolveClusterProfile());
  const text = formatPlanText(p);

  it('shows memory in one unit with one decimal', () => {
    // 7g.40gb really offers 36864 MiB: never "36864 MiB" or "36 GiB".
    expect(text).toContain(
      '- VRAM per replica: 36.0 GiB requested, 36.0 GiB guaranteed',
    );
    expect(text).not.toMatch(/\d MiB/);
  });

  it('says what the request pays, what it adds and what the pool leaves idle', () => {
    // 4 whole-GPU instances of a $16,029.08 8-GPU node: half is idle.
    expect(text).toContain(
      '- Cost (attributed): $8,014.54/month: its share of pool gpu-a100-40gb-mig-7g.40gb (4 of 8 nvidia.com/mig-7g.40gb)',
    );
    expect(text).toContain(
      '- Cost (added to the bill): $16,029.08/month: pool gpu-a100-40gb-mig-7g.40gb goes from 0 nodes to 1 node',
    );
    expect(text).toContain(
      '- Pool nodes: 1 × p4d.24xlarge at $16,029.08/month = $16,029.08/month: $8,014.54 attributed to 1 request + $8,014.54 unallocated (4 of 8 nvidia.com/mig-7g.40gb free)',
    );
    expect(text).toContain('- Pool: gpu-a100-40gb-mig-7g.40gb (new)');
  });

  it('says when a change fits capacity already paid for', () => {
    const cost = {
      ...p.cost,
      marginalUsdPerMonth: 0,
      pool: { ...p.cost.pool, nodesBefore: 1 },
    };
    expect(describeCost(cost, 'research/bert', p.resourceName).marginal).toBe(
      '$0.00/month: it fits capacity already paid for (1 node)',
    );
  });
});
