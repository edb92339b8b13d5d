/**
 * The team's own NFD rules in the node shape of a Cluster API or static
 * pool: a rule labelling every node with an NVIDIA GPU of some PCI device
 * ids labels the pool's nodes when its model has only those ids.
 */
import { landingPools } from './landingPools';
import { nfdGpuNodeClasses, nfdRuleLabelsOnGpuNodes } from './nfdRuleLabels';
import { nodeShapeOf } from './nodeShapeOf';
import { podSchedulingOf } from './podScheduling';

/** A team's rule, as NFD's docs write one (v0.18.3 docs/usage/custom-resources.md). */
function teamRule(
  labels: Record<string, string>,
  matchExpressions: Record<string, unknown>,
  extra: Record<string, unknown> = {},
) {
  return {
    apiVersion: 'nfd.k8s-sigs.io/v1alpha1',
    kind: 'NodeFeatureRule',
    metadata: { name: 'gpu-class' },
    spec: {
      rules: [
        {
          name: 'gpu-class',
          labels,
          matchFeatures: [{ feature: 'pci.device', matchExpressions }],
          ...extra,
        },
      ],
    },
  };
}

const NVIDIA = { op: 'In', value: ['10de'] };
// The A100 40GB's PCI device ids (catalog: 20b0, 20b1, 20f1, 20f6).
const A100_IDS = ['20b0', '20b1', '20f1', '20f6'];
const a100Rule = teamRule(
  { 'feature.node.kubernetes.io/gpu-class': 'a100' },
  { vendor: NVIDIA, device: { op: 'In', value: [...A100_IDS, '20b2'] } },
);

/** The product's static pool of A100 nodes, read as the NodePool it stands for. */
const a100Pool = {
  kind: 'NodeFeatureRule',
  metadata: {
    name: 'gpu-a100-40gb',
    annotations: { 'gpu.backstage.io/gpu-model': 'a100-40gb' },
  },
  spec: {
    template: {
      metadata: { labels: { 'gpu.backstage.io/pool': 'gpu-a100-40gb' } },
    },
  },
};

describe('a static pool’s nodes and the team’s own NFD rules', () => {
  it('carry the label a rule gives every A100, so a workload selecting it lands there', () => {
    const shape = nodeShapeOf(a100Pool, { objects: [a100Rule] });
    expect(shape.labels).toEqual({
      'feature.node.kubernetes.io/gpu-class': 'a100',
      'gpu.backstage.io/pool': 'gpu-a100-40gb',
    });
    const pod = podSchedulingOf({
      nodeSelector: { 'feature.node.kubernetes.io/gpu-class': 'a100' },
      containers: [{ name: 'c' }],
    });
    expect(landingPools(pod, [shape]).pools).toEqual(['gpu-a100-40gb']);
  });

  it('never on a Karpenter NodePool: Karpenter launches no node for such a label', () => {
    const nodePool = { ...a100Pool, kind: 'NodePool' };
    expect(
      nodeShapeOf(nodePool, { objects: [a100Rule] }).labels,
    ).not.toHaveProperty('feature.node.kubernetes.io/gpu-class');
  });

  it('reads only rules that hold on every GPU of the model, by PCI vendor and device alone', () => {
    const labelsOf = (rule: unknown) =>
      nfdRuleLabelsOnGpuNodes([rule], A100_IDS);
    // Vendor alone: every NVIDIA node; an unprefixed name gets NFD's prefix.
    expect(
      labelsOf(teamRule({ 'has-gpu': 'true' }, { vendor: NVIDIA })),
    ).toEqual({ 'feature.node.kubernetes.io/has-gpu': 'true' });
    // Some of the model's ids only: its node may have another.
    expect(
      labelsOf(
        teamRule(
          { 'example.com/gpu': 'a100-sxm' },
          { vendor: NVIDIA, device: { op: 'In', value: ['20b0'] } },
        ),
      ),
    ).toEqual({});
    // Another feature (a kernel module), another attribute, a matchAny, another vendor: cannot be told.
    const withKernel = teamRule({ 'example.com/x': 'y' }, { vendor: NVIDIA });
    withKernel.spec.rules[0].matchFeatures.push({
      feature: 'kernel.loadedmodule',
      matchExpressions: { nvidia: { op: 'Exists' } },
    });
    expect(labelsOf(withKernel)).toEqual({});
    expect(
      labelsOf(
        teamRule({ 'example.com/x': 'y' }, { vendor: NVIDIA, class: NVIDIA }),
      ),
    ).toEqual({});
    expect(
      labelsOf(
        teamRule(
          { 'example.com/x': 'y' },
          { vendor: NVIDIA },
          { matchAny: [] },
        ),
      ),
    ).toEqual({});
    expect(
      labelsOf(
        teamRule(
          { 'example.com/x': 'y' },
          { vendor: { op: 'In', value: ['15b3'] } },
        ),
      ),
    ).toEqual({});
  });

  it('skips the product’s own rules and knows nothing without the model’s ids', () => {
    const ours = {
      ...a100Rule,
      metadata: {
        name: 'gpu-a100-40gb',
        labels: { 'app.kubernetes.io/managed-by': 'backstage-gpu-gitops' },
      },
    };
    expect(nfdRuleLabelsOnGpuNodes([ours], A100_IDS)).toEqual({});
    expect(nfdRuleLabelsOnGpuNodes([a100Rule], [])).toEqual({});
  });

  it('where the team’s rule and the pool’s set one label, the one NFD applies last (by name) decides it', () => {
    const ts = (name: string) => ({
      ...teamRule(
        { 'nvidia.com/device-plugin.config': 'ts-2' },
        { vendor: NVIDIA },
      ),
      metadata: { name },
    });
    const pool = {
      ...a100Pool,
      spec: {
        template: {
          metadata: { labels: { 'nvidia.com/device-plugin.config': 'ts-4' } },
        },
      },
    };
    const config = (rule: unknown) =>
      nodeShapeOf(pool, { objects: [rule] }).labels[
        'nvidia.com/device-plugin.config'
      ];
    expect(config(ts('zz-sharing'))).toBe('ts-2');
    expect(config(ts('aa-sharing'))).toBe('ts-4');
  });
});

describe('the GPU classes a team’s own NFD rules label', () => {
  it('one per rule matching NVIDIA PCI devices, with its labels (NFD’s prefix added); other rules and the product’s own are not classes', () => {
    const kernelRule = teamRule(
      { 'kernel-rt': 'true' },
      {},
      {
        matchFeatures: [
          {
            feature: 'kernel.config',
            matchExpressions: { PREEMPT_RT: { op: 'IsTrue' } },
          },
        ],
      },
    );
    const anyNvidia = teamRule({ 'gpu-vendor': 'nvidia' }, { vendor: NVIDIA });
    expect(
      nfdGpuNodeClasses([a100Rule, kernelRule, anyNvidia, a100Pool]),
    ).toEqual([
      {
        rule: 'gpu-class/gpu-class',
        labels: { 'feature.node.kubernetes.io/gpu-class': 'a100' },
      },
      {
        rule: 'gpu-class/gpu-class',
        labels: { 'feature.node.kubernetes.io/gpu-vendor': 'nvidia' },
      },
    ]);
  });
});
