import { builtinCatalog, mergeCatalog } from '@gpu-gitops/plugin-gpu-common';
import { join } from 'path';
import {
  removeTempRepo,
  writeTempRepo,
} from '../changes/__fixtures__/gitopsRepo';
import { FsRepoTree } from '../repo/tree';
import { gpuRepoFiles } from './__fixtures__/gpuRepo';
import {
  aksKarpenterRepoFiles,
  capoRepoFiles,
  eksBlueprintsRepoFiles,
  handWrittenTimeSlicingFiles,
  karpenterResourcesChartFiles,
} from './__fixtures__/realRepos';
import {
  GitOpsTreeReport,
  validateGitOpsTreeReport,
  ValidateGitOpsTreeOptions,
} from './validateGitOpsTree';

// A hang guard, not a speed goal: each test runs the real kustomize (and git) several
// times, which on a loaded two-core CI machine takes far longer than the default 30 s.
jest.setTimeout(300_000);

const dirs: string[] = [];
afterAll(async () => {
  await Promise.all(dirs.map(removeTempRepo));
});

async function validate(
  files: Record<string, string>,
  options: ValidateGitOpsTreeOptions = {},
): Promise<GitOpsTreeReport> {
  const dir = await writeTempRepo(files);
  dirs.push(dir);
  return validateGitOpsTreeReport(dir, options);
}

const rules = (report: GitOpsTreeReport) =>
  report.findings.map(f => `${f.file} ${f.object} ${f.rule}`);

describe('validate on repositories shaped like public ones (issue 23)', () => {
  it('takes integer quantities in NodePool limits, as the CRD does (int-or-string)', async () => {
    const report = await validate(eksBlueprintsRepoFiles());
    expect(report.findings).toEqual([]);
  });

  it('takes an integer NodeOverlay capacity and pool limit as their quoted forms', async () => {
    const files = await projectFixtureFiles();
    const pool = 'clusters/dev/gpu/nodepools/gpu-t4-ts4.yaml';
    const report = await validate({
      ...files,
      [pool]: files[pool]
        .replace("nvidia.com/gpu.shared: '4'", 'nvidia.com/gpu.shared: 4')
        .replace("nvidia.com/gpu: '2'", 'nvidia.com/gpu: 2'),
    });
    expect(files[pool]).toContain("nvidia.com/gpu.shared: '4'");
    expect(report.findings).toEqual([]);
  });

  it('still reports a GPU limit the workloads overrun, read from an integer', async () => {
    const files = eksBlueprintsRepoFiles();
    const pool = 'clusters/prod/gpu.yaml';
    const report = await validate({
      ...files,
      [pool]: files[pool].replace('nvidia.com/gpu: 8', 'nvidia.com/gpu: 4'),
    });
    expect(rules(report)).toEqual([`${pool} NodePool/gpu pool-limit-short`]);
  });

  it('skips a Helm chart folder with a note: its templates are not YAML until Helm renders them', async () => {
    const report = await validate({
      ...eksBlueprintsRepoFiles(),
      ...karpenterResourcesChartFiles('charts/karpenter-resources'),
    });
    expect(report.findings).toEqual([]);
    expect(report.notes).toEqual([
      expect.stringContaining('charts/karpenter-resources is a Helm chart'),
    ]);
  });

  it("skips a Helm chart folder inside a cluster's GPU folder too", async () => {
    const report = await validate({
      ...gpuRepoFiles(),
      ...karpenterResourcesChartFiles('clusters/dev/gpu/charts/karpenter'),
    });
    expect(report.findings).toEqual([]);
    expect(report.notes).toEqual([
      expect.stringContaining(
        'clusters/dev/gpu/charts/karpenter is a Helm chart',
      ),
    ]);
  });
});

describe('validate reports what the cluster would silently drop (issue 23)', () => {
  it('reports a field the API server prunes: a karpenter.sh/v1 NodePool kubelet', async () => {
    const files = eksBlueprintsRepoFiles();
    const pool = 'clusters/prod/gpu.yaml';
    // The v1beta1 place of the kubelet settings (the chart above still has it there).
    const report = await validate({
      ...files,
      [pool]: files[pool].replace(
        '      taints:\n',
        '      kubelet:\n        maxPods: 110\n      taints:\n',
      ),
    });
    expect(rules(report)).toEqual([`${pool} NodePool/gpu field-pruned`]);
    expect(report.findings[0].message).toMatch(
      /^spec\.template\.spec\.kubelet: karpenter\.sh\/v1 NodePool has no such field \(Karpenter AWS v1\.14\.1 \/ Azure v1\.14\.2 CRDs\), so the API server prunes it.*EC2NodeClass/,
    );
  });

  it('reports a misspelt field of a node class and of a patch, not the fields the schema keeps', async () => {
    const files = eksBlueprintsRepoFiles();
    const report = await validate({
      ...files,
      'clusters/prod/karpenter.yaml': files[
        'clusters/prod/karpenter.yaml'
      ].replace(
        '  role: ex-karpenter-mng\n',
        '  role: ex-karpenter-mng\n  blockDeviceMapping:\n    - deviceName: /dev/xvda\n',
      ),
      'clusters/prod/kustomization.yaml': `${files['clusters/prod/kustomization.yaml']}patches:\n  - path: gpu-weight.yaml\n`,
      'clusters/prod/gpu-weight.yaml':
        'apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata:\n  name: gpu\nspec:\n  weight: 10\n  wieght: 10\n',
    });
    expect(
      report.findings.map(
        f => `${f.file} ${f.object} ${f.message.split(':')[0]}`,
      ),
    ).toEqual([
      'clusters/prod/gpu-weight.yaml NodePool/gpu spec.wieght',
      'clusters/prod/karpenter.yaml EC2NodeClass/default spec.blockDeviceMapping',
    ]);
  });
});

describe('validate on node classes (issue 23)', () => {
  it('finds nothing wrong in the AKS example, its pools on the AKSNodeClass it defines', async () => {
    expect((await validate(aksKarpenterRepoFiles())).findings).toEqual([]);
  });

  it('reports a nodeClassRef to a class no object of the cluster defines', async () => {
    const files = aksKarpenterRepoFiles();
    const pool = 'clusters/aks/gpu.yaml';
    // What a provider-blind rewrite left on an AKS cluster.
    const report = await validate({
      ...files,
      [pool]: files[pool]
        .replace('group: karpenter.azure.com', 'group: karpenter.k8s.aws')
        .replace('kind: AKSNodeClass', 'kind: EC2NodeClass'),
    });
    expect(rules(report)).toEqual([
      `${pool} NodePool/gpu node-class-not-found`,
    ]);
    expect(report.findings[0].message).toContain(
      'names EC2NodeClass/default (karpenter.k8s.aws), which no object of the cluster defines (its node classes: AKSNodeClass/default)',
    );
  });

  it('says nothing when the tree defines no node class (they are applied from elsewhere)', async () => {
    const files = eksBlueprintsRepoFiles();
    const karpenter = files['clusters/prod/karpenter.yaml'];
    const report = await validate({
      ...files,
      // Only the NodePool: the EC2NodeClass is Terraform's.
      'clusters/prod/karpenter.yaml': karpenter.slice(
        karpenter.indexOf('---\napiVersion: karpenter.sh/v1'),
      ),
    });
    expect(report.findings).toEqual([]);
  });

  it("says nothing when the tree's only node classes are the product's (the team's are applied from elsewhere)", async () => {
    const files = eksBlueprintsRepoFiles();
    const karpenter = files['clusters/prod/karpenter.yaml'];
    const onlyNodePool = karpenter.slice(
      karpenter.indexOf('---\napiVersion: karpenter.sh/v1'),
    );
    // The bootstrap's GPU class, beside the team's NodePool whose class is Terraform's.
    const productClass = `---
apiVersion: karpenter.k8s.aws/v1
kind: EC2NodeClass
metadata:
  name: gpu
  labels:
    app.kubernetes.io/managed-by: backstage-gpu-gitops
spec:
  amiSelectorTerms:
    - alias: al2023@latest
  role: KarpenterNodeRole-prod
  subnetSelectorTerms:
    - tags: { karpenter.sh/discovery: prod }
  securityGroupSelectorTerms:
    - tags: { karpenter.sh/discovery: prod }
`;
    const report = await validate({
      ...files,
      'clusters/prod/karpenter.yaml': `${onlyNodePool}${productClass}`,
    });
    expect(
      report.findings.filter(f => f.rule === 'node-class-not-found'),
    ).toEqual([]);
    // The same class written by the team: the tree keeps the team's classes, so it is judged.
    const teamClass = productClass.replace(
      '  labels:\n    app.kubernetes.io/managed-by: backstage-gpu-gitops\n',
      '',
    );
    const judged = await validate({
      ...files,
      'clusters/prod/karpenter.yaml': `${onlyNodePool}${teamClass}`,
    });
    expect(
      judged.findings
        .filter(f => f.rule === 'node-class-not-found')
        .map(f => f.object),
    ).toEqual(['NodePool/gpu', 'NodePool/default']);
  });
});

describe('validate on a hand-written device-plugin ConfigMap (issue 23)', () => {
  const files = (): Record<string, string> => {
    const base = eksBlueprintsRepoFiles();
    return {
      ...base,
      ...handWrittenTimeSlicingFiles(),
      'clusters/prod/kustomization.yaml': `${base['clusters/prod/kustomization.yaml']}  - time-slicing-config.yaml\n  - gpu-t4.yaml\n`,
    };
  };

  it('takes the key the repository defines when no --cluster names the ConfigMap', async () => {
    expect((await validate(files())).findings).toEqual([]);
  });

  it('still reports a key that no device-plugin ConfigMap of the repository holds', async () => {
    const all = files();
    const pool = 'clusters/prod/gpu-t4.yaml';
    const report = await validate({
      ...all,
      [pool]: all[pool].replace(': tesla-t4', ': tesla-t4-ts8'),
    });
    expect(rules(report)).toEqual([
      `${pool} NodePool/gpu-t4 unknown-device-plugin-config`,
    ]);
    expect(report.findings[0].message).toContain(
      'gpu-operator/time-slicing-config-fine (known: a100-40gb, tesla-t4)',
    );
  });

  it('with --cluster, reads only the ConfigMap the cluster names', async () => {
    const report = await validate(files(), {
      cluster: {
        name: 'prod',
        devicePluginConfigMap: {
          name: 'nvidia-device-plugin-configs',
          namespace: 'gpu-operator',
        },
      },
    });
    expect(rules(report)).toEqual([
      'clusters/prod/gpu-t4.yaml NodePool/gpu-t4 unknown-device-plugin-config',
    ]);
  });

  it('says it cannot tell, without a finding, when no --cluster is given and no device-plugin ConfigMap is built', async () => {
    const { ['clusters/prod/time-slicing-config.yaml']: _configMap, ...all } =
      files();
    const kustomization = 'clusters/prod/kustomization.yaml';
    const report = await validate({
      ...all,
      [kustomization]: all[kustomization].replace(
        '  - time-slicing-config.yaml\n',
        '',
      ),
    });
    expect(report.findings).toEqual([]);
    expect(report.notes).toEqual([
      expect.stringContaining(
        'NodePool/gpu-t4 selects device-plugin config tesla-t4, but no device-plugin ConfigMap is built',
      ),
    ]);
  });
});

describe('validate on a Cluster API flavor the catalog does not know (issue 23)', () => {
  /** The site's flavor, as a `--catalog` override lists it. */
  const withFlavor = (gpusPerNode: number) =>
    mergeCatalog(builtinCatalog, {
      instanceTypes: [
        {
          name: 'g1.a100x4',
          family: 'g1',
          provider: 'openstack',
          gpuModel: 'a100-40gb',
          gpusPerNode,
          vcpu: 64,
          memoryMiB: 491520,
          onDemandUsdPerHour: 0,
        },
      ],
    });

  it('does not take its nodes for 1-GPU nodes: no finding, a note that the count is unknown', async () => {
    const report = await validate(capoRepoFiles());
    expect(report.findings).toEqual([]);
    expect(report.notes).toEqual([
      expect.stringContaining(
        'MachineDeployment/ml-prod-md-0 (clusters/ml-prod/md-0.yaml): how many GPUs its nodes have is unknown (machine g1.a100x4 is not in the catalog: pass --catalog with its GPUs per node)',
      ),
    ]);
  });

  it('with the flavor in the catalog, checks the replicas against its GPUs', async () => {
    expect(await validate(capoRepoFiles(), { catalog: withFlavor(4) })).toEqual(
      { findings: [], notes: [] },
    );
    const report = await validate(capoRepoFiles(), {
      catalog: withFlavor(2),
    });
    expect(rules(report)).toEqual([
      'clusters/ml-prod/md-0.yaml MachineDeployment/ml-prod-md-0 replica-exceeds-node',
    ]);
  });
});

describe("validate on a workload selecting its GPU by GPU Feature Discovery's product label (issue 23)", () => {
  /** The flavor of the Cluster API fixture as a site's catalog lists it: 4 A100 40GB GPUs. */
  const a100Flavor = mergeCatalog(builtinCatalog, {
    instanceTypes: [
      {
        name: 'g1.a100x4',
        family: 'g1',
        provider: 'openstack',
        gpuModel: 'a100-40gb',
        gpusPerNode: 4,
        vcpu: 64,
        memoryMiB: 491520,
        onDemandUsdPerHour: 0,
      },
    ],
  });
  /** The trainer of the Cluster API fixture, also selecting `nvidia.com/gpu.product: <product>`. */
  const trainerSelecting = (product: string): Record<string, string> => {
    const files = capoRepoFiles();
    const file = 'apps/ml/trainer/deployment.yaml';
    const pinned = '        gpu.backstage.io/pool: ml-prod-md-0\n';
    expect(files[file]).toContain(pinned);
    return {
      ...files,
      [file]: files[file].replace(
        pinned,
        `${pinned}        nvidia.com/gpu.product: ${product}\n`,
      ),
    };
  };

  it('reports a Tesla-T4 selector on the A100 MachineDeployment: its pods land nowhere', async () => {
    const report = await validate(trainerSelecting('Tesla-T4'), {
      catalog: a100Flavor,
    });
    expect(rules(report)).toEqual([
      'apps/ml/trainer/deployment.yaml Deployment/trainer workload-unschedulable',
    ]);
    expect(report.findings[0].message).toContain('nvidia.com/gpu.product');
  });

  it('takes the product name GPU Feature Discovery gives the A100 nodes', async () => {
    expect(
      await validate(trainerSelecting('NVIDIA-A100-SXM4-40GB'), {
        catalog: a100Flavor,
      }),
    ).toEqual({ findings: [], notes: [] });
  });

  it('reads the model from the pool label of a MachineDeployment whose flavor the catalog does not know', async () => {
    const files = trainerSelecting('Tesla-T4');
    const md = 'clusters/ml-prod/md-0.yaml';
    files[md] = files[md].replace(
      '    gpu.backstage.io/requests: ""\n',
      '    gpu.backstage.io/requests: ""\n    gpu.backstage.io/gpu-model: a100-80gb\n',
    );
    expect(rules(await validate(files))).toEqual([
      'apps/ml/trainer/deployment.yaml Deployment/trainer workload-unschedulable',
    ]);
  });

  it('reads the model label of a static pool (NodeFeatureRule) the same way', async () => {
    /** Two racked A100 servers the rule labels as pool gpu-a100, as the product writes a static pool. */
    const rack = (product: string): Record<string, string> => ({
      'clusters/rack/kustomization.yaml': 'resources:\n  - gpu-a100.yaml\n',
      'clusters/rack/gpu-a100.yaml': `apiVersion: nfd.k8s-sigs.io/v1alpha1
kind: NodeFeatureRule
metadata:
  name: gpu-a100
  annotations:
    gpu.backstage.io/sharing-mode: exclusive
    gpu.backstage.io/requests: ""
    gpu.backstage.io/gpu-model: a100-40gb
spec:
  rules:
    - name: gpu-a100
      labels:
        gpu.backstage.io/pool: gpu-a100
      matchFeatures:
        - feature: system.name
          matchExpressions:
            nodename: { op: In, value: ["a100-01", "a100-02"] }
`,
      'apps/ml/trainer/kustomization.yaml': 'resources:\n  - deployment.yaml\n',
      'apps/ml/trainer/deployment.yaml': capoRepoFiles()
        ['apps/ml/trainer/deployment.yaml'].replace(
          '        gpu.backstage.io/pool: ml-prod-md-0\n',
          `        gpu.backstage.io/pool: gpu-a100\n        nvidia.com/gpu.product: ${product}\n`,
        )
        .replace('nvidia.com/gpu: 4', 'nvidia.com/gpu: 1'),
    });
    expect(rules(await validate(rack('Tesla-T4')))).toEqual([
      'apps/ml/trainer/deployment.yaml Deployment/trainer workload-unschedulable',
    ]);
    expect((await validate(rack('NVIDIA-A100-PCIE-40GB'))).findings).toEqual(
      [],
    );
  });

  it('judges no product on a pool whose model is not known, and says so', async () => {
    const report = await validate(trainerSelecting('Tesla-T4'));
    expect(report.findings).toEqual([]);
    expect(report.notes).toEqual(
      expect.arrayContaining([
        expect.stringContaining(
          'Deployment/trainer selects nvidia.com/gpu.product: Tesla-T4, but the GPU model of MachineDeployment/ml-prod-md-0 is not known',
        ),
      ]),
    );
  });
});

/** The project's fixture repository: a product pool (gpu-t4-ts4) and its companion NodeOverlay. */
async function projectFixtureFiles(): Promise<Record<string, string>> {
  const root = join(__dirname, '../../../../test/fixtures/gitops-repo');
  const tree = new FsRepoTree(root);
  const files: Record<string, string> = {};
  for (const path of await tree.listFiles()) {
    files[path] = (await tree.readFile(path))!;
  }
  return files;
}

describe("validate on hand-written NodeOverlays beside the product's pools (issue 23)", () => {
  /** A team's overlay for every 1-GPU NVIDIA node, as Bottlerocket time-slicing setups write it. */
  const teamOverlay = (
    requirements: string,
  ) => `apiVersion: karpenter.sh/v1alpha1
kind: NodeOverlay
metadata:
  name: nvidia-time-slicing-4
spec:
  requirements:
${requirements}  capacity:
    nvidia.com/gpu.shared: "4"
`;
  const withOverlay = async (requirements: string) => {
    const files = await projectFixtureFiles();
    const kustomization = 'clusters/dev/kustomization.yaml';
    return {
      ...files,
      'clusters/dev/karpenter/time-slicing-overlay.yaml':
        teamOverlay(requirements),
      [kustomization]: files[kustomization].replace(
        '  - karpenter/default-nodepool.yaml\n',
        '  - karpenter/default-nodepool.yaml\n  - karpenter/time-slicing-overlay.yaml\n',
      ),
    };
  };
  const nvidiaOneGpu = `    - key: karpenter.k8s.aws/instance-gpu-manufacturer
      operator: In
      values: ["nvidia"]
    - key: karpenter.k8s.aws/instance-gpu-count
      operator: In
      values: ["1"]
`;

  it("reports one with no karpenter.sh/nodepool requirement that matches the product's pool", async () => {
    const report = await validate(await withOverlay(nvidiaOneGpu));
    expect(rules(report)).toEqual([
      'clusters/dev/karpenter/time-slicing-overlay.yaml NodeOverlay/nvidia-time-slicing-4 node-overlay-reaches-product-pool',
    ]);
    expect(report.findings[0].message).toContain(
      "also matches the product's pool(s) gpu-t4-ts4 (it has no karpenter.sh/nodepool requirement), so Karpenter assumes nvidia.com/gpu.shared: 4 for their nodes",
    );
  });

  it("reports one whose karpenter.sh/nodepool requirement lets the product's pool in", async () => {
    const report = await validate(
      await withOverlay(
        `${nvidiaOneGpu}    - key: karpenter.sh/nodepool\n      operator: In\n      values: [team-a, gpu-t4-ts4]\n`,
      ),
    );
    expect(rules(report)).toEqual([
      'clusters/dev/karpenter/time-slicing-overlay.yaml NodeOverlay/nvidia-time-slicing-4 node-overlay-reaches-product-pool',
    ]);
  });

  /**
   * The GPU time-slicing overlay of aws-samples/karpenter-blueprints
   * `blueprints/node-overlay/README.md` ("Scenario 2", `gpu-slices-1gpu`:
   * weight 10, every 1-GPU NVIDIA instance), as a team whose Bottlerocket
   * nodes slice each GPU 8 ways under the renamed resource writes it.
   */
  const blueprintOverlay = (
    weight: string,
    name: string,
  ) => `apiVersion: karpenter.sh/v1alpha1
kind: NodeOverlay
metadata:
  name: ${name}
spec:
${weight}  requirements:
    - key: karpenter.k8s.aws/instance-gpu-count
      operator: In
      values: ["1"]
    - key: karpenter.k8s.aws/instance-gpu-manufacturer
      operator: In
      values: ["nvidia"]
  capacity:
    nvidia.com/gpu.shared: 8
`;
  const withBlueprintOverlay = async (
    weight: string,
    name = 'gpu-slices-1gpu',
  ) => {
    const files = await withOverlay(nvidiaOneGpu);
    return {
      ...files,
      'clusters/dev/karpenter/time-slicing-overlay.yaml': blueprintOverlay(
        weight,
        name,
      ),
    };
  };

  it("says which overlay Karpenter applies to the product's pool, and what it then believes", async () => {
    const report = await validate(await withBlueprintOverlay('  weight: 10\n'));
    expect(rules(report)).toEqual([
      'clusters/dev/karpenter/time-slicing-overlay.yaml NodeOverlay/gpu-slices-1gpu node-overlay-reaches-product-pool',
      'clusters/dev/karpenter/time-slicing-overlay.yaml NodeOverlay/gpu-slices-1gpu node-overlay-overrides-product-overlay',
    ]);
    expect(report.findings[1].message).toContain(
      "Karpenter applies this hand-written overlay to the 1-GPU nodes of pool gpu-t4-ts4 instead of the product's NodeOverlay gpu-t4-ts4-1gpu (its weight 10 outranks the product overlay's no weight (0)): it believes nvidia.com/gpu.shared: 8 per node there, where the product's overlay says 4",
    );
  });

  it('at equal weight, says Karpenter takes the name that sorts later and rejects the other', async () => {
    const report = await validate(
      await withBlueprintOverlay('', 'nvidia-gpu-slices'),
    );
    expect(rules(report)).toContain(
      'clusters/dev/karpenter/time-slicing-overlay.yaml NodeOverlay/nvidia-gpu-slices node-overlay-overrides-product-overlay',
    );
    expect(report.findings[1].message).toContain(
      "both have no weight (0): Karpenter takes the name later in the alphabet first and rejects the product's overlay as conflicting): it believes nvidia.com/gpu.shared: 8",
    );
    // `gpu-slices-1gpu` sorts before the product's `gpu-t4-ts4-1gpu`: Karpenter rejects the team's, everywhere.
    const rejected = await validate(await withBlueprintOverlay(''));
    expect(rules(rejected)).toEqual([
      'clusters/dev/karpenter/time-slicing-overlay.yaml NodeOverlay/gpu-slices-1gpu node-overlay-rejected-beside-product-overlay',
    ]);
    expect(rejected.findings[0].message).toContain(
      "Karpenter rejects this hand-written overlay as conflicting (ValidationSucceeded=False) with the product's NodeOverlay gpu-t4-ts4-1gpu: no weight (0) like it, setting nvidia.com/gpu.shared too, and taken first because its name sorts later; Karpenter applies this overlay to no machine at all, your own pools' included",
    );
  });

  /**
   * The team's overlay as the only one giving the product's pool its slices
   * (the product's own companion taken out, as a request writes none where
   * the team's already covers the pool: `keepHandWrittenOverlays`; the pool
   * names its resource, as every pool a request writes does).
   */
  const withTeamOverlayOnly = async (slices: string) => {
    const files: Record<string, string> = await withOverlay(nvidiaOneGpu);
    const pool = 'clusters/dev/gpu/nodepools/gpu-t4-ts4.yaml';
    return {
      ...files,
      [pool]: files[pool]
        .slice(0, files[pool].indexOf('---\n'))
        .replace(
          '  name: gpu-t4-ts4\n',
          '  name: gpu-t4-ts4\n  annotations:\n    gpu.backstage.io/resource-name: nvidia.com/gpu.shared\n',
        ),
      'clusters/dev/karpenter/time-slicing-overlay.yaml': files[
        'clusters/dev/karpenter/time-slicing-overlay.yaml'
      ].replace(
        'nvidia.com/gpu.shared: "4"',
        `nvidia.com/gpu.shared: "${slices}"`,
      ),
    };
  };

  it("says nothing of one that gives a product pool with no overlay of its own exactly what its nodes advertise: it is the pool's overlay", async () => {
    expect(rules(await validate(await withTeamOverlayOnly('4')))).toEqual([]);
  });

  it('reports one that gives such a pool another count', async () => {
    const report = await validate(await withTeamOverlayOnly('8'));
    expect(rules(report)).toEqual([
      'clusters/dev/karpenter/time-slicing-overlay.yaml NodeOverlay/nvidia-time-slicing-4 node-overlay-reaches-product-pool',
    ]);
    expect(report.findings[0].message).toContain(
      'so Karpenter assumes nvidia.com/gpu.shared: 8 for their nodes',
    );
  });

  it("says nothing of one scoped away from the product's pools, or whose other requirements miss them", async () => {
    for (const requirements of [
      `${nvidiaOneGpu}    - key: karpenter.sh/nodepool\n      operator: NotIn\n      values: [gpu-t4-ts4]\n`,
      `${nvidiaOneGpu}    - key: karpenter.sh/nodepool\n      operator: In\n      values: [team-a]\n`,
      // The pool's g4dn types have 1 GPU: a 4-GPU overlay never reaches them.
      '    - key: karpenter.k8s.aws/instance-gpu-count\n      operator: In\n      values: ["4"]\n',
      '    - key: karpenter.k8s.aws/instance-family\n      operator: In\n      values: ["g5"]\n',
    ]) {
      expect(rules(await validate(await withOverlay(requirements)))).toEqual(
        [],
      );
    }
  });
});
