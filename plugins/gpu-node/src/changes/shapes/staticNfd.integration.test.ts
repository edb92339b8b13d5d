/**
 * A platform team's round on a static GPU cluster whose team wrote its own
 * NFD rules (`test/fixtures/static-nfd-repo`, origins in its README): a
 * NodeFeatureRule labelling each node with its GPU class from the NVIDIA
 * PCI devices NFD finds, and a Deployment that selects that label.
 * Bootstrap, then requests in each sharing mode the lab runs; every
 * request's pods land on the pool the plan chose and no other, the tree
 * validates clean, and its release gives every file back.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import {
  builtinCatalog,
  mergeCatalog,
  resolveClusterProfile,
} from '@gpu-gitops/plugin-gpu-common';
import { FsRepoTree } from '../../repo/tree';
import {
  validateGitOpsTree,
  validateGitOpsTreeReport,
} from '../../validate/validateGitOpsTree';
import { buildRequestChange } from '../buildRequestChange';
import { buildReleaseChange } from '../release/buildReleaseChange';
import { writeChangeSet } from '../stagedTree';
import {
  bootstrapShape,
  checkoutShape,
  expectLandsOnPlannedPool,
  removeCheckout,
  shapeRequest,
  snapshot,
  withShapeRepository,
} from './__testUtils__/shapeRound';

// The bootstrap, then each request and release built with the real kustomize.
jest.setTimeout(300_000);

/** The lab's machines: two-T4 and four-A100 servers, owned (price 0). */
const catalog = mergeCatalog(builtinCatalog, {
  instanceTypes: [
    ['lab-t4x2', 't4', 2, 128, 32],
    ['lab-a100x4', 'a100-40gb', 4, 512, 64],
  ].map(([name, gpuModel, gpusPerNode, ramGB, vcpu]) => ({
    name: String(name),
    family: 'lab',
    provider: 'static' as const,
    gpuModel: String(gpuModel),
    gpusPerNode: Number(gpusPerNode),
    vcpu: Number(vcpu),
    memoryMiB: Number(ramGB) * 1024,
    onDemandUsdPerHour: 0,
  })),
});

const cluster = resolveClusterProfile({
  name: 'lab',
  provider: 'static',
  migStrategy: 'single',
  staticNodes: {
    select: 'name',
    inventory: [
      ...['t4-01', 't4-02', 't4-03', 't4-04'].map(name => ({
        name,
        machine: 'lab-t4x2',
      })),
      { name: 'a100-01', machine: 'lab-a100x4' },
      { name: 'a100-02', machine: 'lab-a100x4' },
    ],
  },
});

async function requestThenRelease(
  tree: FsRepoTree,
  request: ReturnType<typeof shapeRequest>,
) {
  const change = await buildRequestChange({
    tree,
    dir: tree.root,
    request,
    cluster,
    catalog,
  });
  await writeChangeSet(tree, change.changeSet);
  const findings = await validateGitOpsTree(tree.root, { cluster, catalog });
  const release = await buildReleaseChange({
    tree,
    dir: tree.root,
    request: request.metadata,
    clusterProfile: () => cluster,
    catalog,
  });
  await writeChangeSet(tree, release.changeSet);
  return { change, findings };
}

describe('the static lab whose team wrote its own NFD rules', () => {
  let tree: FsRepoTree;
  let bootstrapped: Record<string, string>;
  /** What validate reports on the bootstrapped lab, before any request. */
  let before: Awaited<ReturnType<typeof validateGitOpsTree>>;

  withShapeRepository('static-nfd-repo', 'gpu-shape-static-nfd-', checkout => {
    ({ tree } = checkout);
  });
  beforeAll(async () => {
    ({ bootstrapped } = await bootstrapShape(tree, cluster));
    before = await validateGitOpsTree(tree.root, { cluster, catalog });
  });

  it('validate finds nothing wrong with the lab before any request: the team’s Deployment lands on the A100s its own NFD rule labels, said in a note', async () => {
    const report = await validateGitOpsTreeReport(tree.root, {
      cluster,
      catalog,
    });
    expect(report.findings).toEqual([]);
    expect(report.notes).toEqual(
      expect.arrayContaining([
        expect.stringContaining(
          "Deployment/trainer selects feature.node.kubernetes.io/gpu-class=a100: its pods may land on the GPU nodes the team's NodeFeatureRule gpu-class/gpu-class a100 labels",
        ),
      ]),
    );
  });

  it.each([
    [
      'the team’s Deployment, exclusive A100s',
      'trainer',
      { model: 'a100-40gb', sharing: 'exclusive', replicas: 2, vramGiB: 30 },
    ],
    [
      'the team’s Deployment, MIG slices',
      'trainer',
      { model: 'a100-40gb', sharing: 'mig', replicas: 3, vramGiB: 9 },
    ],
  ])(
    '%s: its pods land on the planned pool only, its own selector kept, clean, released to the byte',
    async (_what, name, gpu) => {
      const { change, findings } = await requestThenRelease(
        tree,
        shapeRequest(name, {
          gpu,
          workload: { existing: { kind: 'Deployment', name } },
        }),
      );
      expectLandsOnPlannedPool(change);
      // The lab's label is on the pool's A100 nodes: nothing to take out.
      expect(change.plan.warnings.join('\n')).not.toContain('gpu-class');
      expect(findings).toEqual([]);
      expect(await snapshot(tree)).toEqual(bootstrapped);
    },
  );

  it('a new time-sliced T4 workload lands on its new pool only, adds no finding, released to the byte', async () => {
    const { change, findings } = await requestThenRelease(
      tree,
      shapeRequest('notebook', {
        gpu: {
          model: 't4',
          sharing: 'time-slicing',
          replicas: 4,
          vramGiB: 3,
          slicesPerGpu: 4,
        },
        workload: { image: 'ghcr.io/acme/notebook:1.0' },
      }),
    );
    expectLandsOnPlannedPool(change);
    // The team's Deployment lands on its own NFD-labelled GPU nodes (a note,
    // no finding), before and after; the request adds nothing.
    expect(findings).toEqual([]);
    expect(findings).toEqual(before);
    expect(await snapshot(tree)).toEqual(bootstrapped);
  });
});

describe('the static lab, once the team time-slices its T4s with an NFD rule of its own', () => {
  let tree: FsRepoTree;
  afterAll(() => removeCheckout(tree));

  it('validate names the rule that contradicts the pool’s device-plugin config label, and which one NFD applies', async () => {
    tree = await checkoutShape('static-nfd-repo', 'gpu-shape-static-nfd-ts-');
    await bootstrapShape(tree, cluster);
    const change = await buildRequestChange({
      tree,
      dir: tree.root,
      request: shapeRequest('notebook', {
        gpu: {
          model: 't4',
          sharing: 'time-slicing',
          replicas: 4,
          vramGiB: 3,
          slicesPerGpu: 4,
        },
        workload: { image: 'ghcr.io/acme/notebook:1.0' },
      }),
      cluster,
      catalog,
    });
    await writeChangeSet(tree, change.changeSet);
    const pool = change.plan.pool.name;
    const config = change.plan.sharing.deviceConfigName;
    const contradictions = async () =>
      (await validateGitOpsTree(tree.root, { cluster, catalog })).filter(
        f => f.rule === 'contradicting-node-feature-rule',
      );
    expect(await contradictions()).toEqual([]);

    // NVIDIA's time-slicing recipe labels the nodes with the config to use;
    // the team does it with NFD, for every T4.
    await fs.writeFile(
      path.join(tree.root, 'clusters/lab/nfd/t4-time-slicing.yaml'),
      [
        'apiVersion: nfd.k8s-sigs.io/v1alpha1',
        'kind: NodeFeatureRule',
        'metadata:',
        '  name: t4-time-slicing',
        'spec:',
        '  rules:',
        '    - name: "t4 time-slicing"',
        '      labels:',
        '        "nvidia.com/device-plugin.config": "ts-2"',
        '      matchFeatures:',
        '        - feature: pci.device',
        '          matchExpressions:',
        '            vendor: {op: In, value: ["10de"]}',
        '            device: {op: In, value: ["1eb8"]}',
        '',
      ].join('\n'),
    );
    const kustomization = path.join(
      tree.root,
      'clusters/lab/kustomization.yaml',
    );
    await fs.writeFile(
      kustomization,
      (await fs.readFile(kustomization, 'utf8')).replace(
        '  - nfd/gpu-class.yaml\n',
        '  - nfd/gpu-class.yaml\n  - nfd/t4-time-slicing.yaml\n',
      ),
    );
    expect(await contradictions()).toEqual([
      {
        file: 'clusters/lab/nfd/t4-time-slicing.yaml',
        object: 'NodeFeatureRule/t4-time-slicing',
        rule: 'contradicting-node-feature-rule',
        message: `NodeFeatureRule t4-time-slicing sets nvidia.com/device-plugin.config=ts-2 on the GPU nodes of pool ${pool}, whose own rule sets nvidia.com/device-plugin.config=${config}; NFD applies NodeFeatureRules in alphabetical order of their names, so t4-time-slicing decides it: the pool's nodes carry ts-2, not what the pool needs. Make the two rules agree, or keep t4-time-slicing off the pool's nodes.`,
      },
    ]);
  });
});
