/**
 * A platform team's round on the Cluster API management repositories made
 * from the providers' own GPU flavors (origins in each fixture's README):
 *
 * - CAPZ (`test/fixtures/capz-gpu-repo`): the cluster's hand-written T4
 *   MachineDeployment, and the GPU Operator a Cluster API add-on
 *   HelmChartProxy installs on it;
 * - CAPA (`test/fixtures/capa-gpu-repo`): the hand-written g4dn
 *   MachineDeployment, and the GPU Operator a ClusterResourceSet applies as
 *   the plain manifests `helm template` rendered (its ClusterPolicy).
 *
 * The bootstrap adopts that operator and says what to set in it; once the
 * team has, one request of each sharing mode the cluster runs (exclusive,
 * time-slicing, MIG on an A100 machine) lands on the pool the plan chose and
 * no other, its GPU ConfigMaps reach the workload cluster (the management
 * cluster applies this repository; the device plugin reads them in the
 * workload cluster), it validates clean, and its release gives every file
 * back.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { parseAllDocuments, parseDocument } from 'yaml';
import { resolveClusterProfile } from '@gpu-gitops/plugin-gpu-common';
import { crdSchemaErrors } from '@gpu-gitops/plugin-gpu-common/src/manifests/__testUtils__/crdSchemas';
import { kustomizeBuild } from '../../kustomize/build';
import { FsRepoTree } from '../../repo/tree';
import {
  bootstrapShape,
  expectLandsOnPlannedPool,
  requestThenRelease,
  shapeRequest,
  snapshot,
  withShapeRepository,
} from './__testUtils__/shapeRound';

// The bootstrap, then each request and release built with the real kustomize.
jest.setTimeout(300_000);

const CRS_CRD = 'capi-v1.14.0_addons.cluster.x-k8s.io_clusterresourcesets.yaml';

interface Flavor {
  fixture: string;
  cluster: string;
  infrastructure: { infrastructure: string } & Record<string, unknown>;
  /** The operator's own release, and where the bootstrap says to set the config. */
  operatorFile: string;
  operatorNote: string;
  /** The namespace the operator reads its ConfigMaps in. */
  configMapNamespace: string;
  /** What the team sets in the operator's release, as the bootstrap said. */
  setOperatorConfigs(text: string): string;
  machineTemplate: { kind: string; machineField: string };
}

const FLAVORS: Record<string, Flavor> = {
  CAPZ: {
    fixture: 'capz-gpu-repo',
    cluster: 'ml-azure',
    infrastructure: { infrastructure: 'azure', azure: {} },
    operatorFile: 'clusters/ml-azure/gpu-operator.yaml',
    operatorNote:
      'set `devicePlugin.config.name: nvidia-device-plugin-configs` in `spec.valuesTemplate` of HelmChartProxy `gpu-operator`',
    configMapNamespace: 'default',
    setOperatorConfigs: text => {
      const proxy = parseDocument(text);
      proxy.setIn(
        ['spec', 'valuesTemplate'],
        [
          'devicePlugin:',
          '  config:',
          '    name: nvidia-device-plugin-configs',
          '    default: default',
          'migManager:',
          '  config:',
          '    name: custom-mig-parted-config',
          '',
        ].join('\n'),
      );
      return proxy.toString();
    },
    machineTemplate: { kind: 'AzureMachineTemplate', machineField: 'vmSize' },
  },
  CAPA: {
    fixture: 'capa-gpu-repo',
    cluster: 'ml-aws',
    infrastructure: {
      infrastructure: 'aws',
      aws: { iamInstanceProfile: 'nodes.cluster-api-provider-aws.sigs.k8s.io' },
    },
    operatorFile: 'clusters/ml-aws/gpu-operator-components.yaml',
    operatorNote:
      'set `devicePlugin.config.name: nvidia-device-plugin-configs` in `spec` of ClusterPolicy `cluster-policy`',
    configMapNamespace: 'gpu-operator-resources',
    setOperatorConfigs: text => {
      const documents = parseAllDocuments(text);
      const policy = documents.find(d => d.get('kind') === 'ClusterPolicy')!;
      policy.setIn(['spec', 'devicePlugin', 'config'], {
        name: 'nvidia-device-plugin-configs',
        default: 'default',
      });
      policy.setIn(
        ['spec', 'migManager', 'config', 'name'],
        'custom-mig-parted-config',
      );
      return documents.map(d => d.toString()).join('');
    },
    machineTemplate: {
      kind: 'AWSMachineTemplate',
      machineField: 'instanceType',
    },
  },
};

const profile = (flavor: Flavor, configMapNamespace?: string) =>
  resolveClusterProfile({
    name: flavor.cluster,
    provider: 'cluster-api',
    migStrategy: 'single',
    gpuTaintKey: 'nvidia.com/gpu',
    ...(configMapNamespace
      ? {
          devicePluginConfigMap: { namespace: configMapNamespace },
          migPartedConfigMap: { namespace: configMapNamespace },
        }
      : {}),
    clusterApi: {
      clusterName: flavor.cluster,
      namespace: 'default',
      kubernetesVersion: 'v1.33.1',
      autoscaler: false,
      // As the flavors' own workers: the external cloud provider.
      kubeletExtraArgs: { 'cloud-provider': 'external' },
      ...flavor.infrastructure,
    },
  });

type Built = Awaited<ReturnType<typeof kustomizeBuild>>[number];

/**
 * The manifests the workload cluster gets from the management cluster's
 * build: those of every ClusterResourceSet selecting the built Cluster, and
 * what the vendored CRD says of each such ClusterResourceSet.
 */
function deliveredToWorkloadCluster(built: Built[], clusterName: string) {
  const workload = built.find(
    o => o.kind === 'Cluster' && o.metadata.name === clusterName,
  )!;
  const labels = (workload.metadata.labels ?? {}) as Record<string, string>;
  const delivered: Record<string, any>[] = [];
  const schemaErrors: string[] = [];
  for (const set of built.filter(o => o.kind === 'ClusterResourceSet')) {
    const spec = (set as any).spec;
    const selects = Object.entries(spec.clusterSelector?.matchLabels ?? {});
    if (selects.length === 0 || selects.some(([k, v]) => labels[k] !== v))
      continue;
    schemaErrors.push(...crdSchemaErrors(set, CRS_CRD));
    for (const ref of spec.resources) {
      const holder = built.find(
        o =>
          o.kind === ref.kind &&
          o.metadata.name === ref.name &&
          o.metadata.namespace === set.metadata.namespace,
      ) as any;
      for (const text of Object.values<string>(holder?.data ?? {})) {
        delivered.push(...parseAllDocuments(text).map(d => d.toJS()));
      }
    }
  }
  return { delivered, schemaErrors };
}

/**
 * The GPU ConfigMaps as the GPU folder's files make them: each
 * device-plugin config file under its name, the mig-parted file under
 * `config.yaml`.
 */
async function configMapsOfGpuFolder(
  tree: FsRepoTree,
  clusterFolder: string,
  cluster: ReturnType<typeof profile>,
) {
  const folder = `${clusterFolder}/gpu`;
  const files = await tree.listFiles(folder);
  const devicePlugin: Record<string, string> = {};
  for (const file of files.filter(f => f.includes('/device-plugin/'))) {
    devicePlugin[path.basename(file, '.yaml')] = (await tree.readFile(file))!;
  }
  const configMap = (
    ref: { name: string; namespace: string },
    data: Record<string, string>,
  ) => ({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: ref.name, namespace: ref.namespace },
    data,
  });
  return [
    configMap(cluster.devicePluginConfigMap, devicePlugin),
    configMap(cluster.migPartedConfigMap, {
      'config.yaml': (await tree.readFile(`${folder}/mig/config.yaml`))!,
    }),
  ];
}

describe.each(Object.entries(FLAVORS))(
  'the Cluster API management repository made from %s’s GPU flavor',
  (_, flavor) => {
    const clusterFolder = `clusters/${flavor.cluster}`;
    let tree: FsRepoTree;
    let untouched: Record<string, string>;

    withShapeRepository(
      flavor.fixture,
      `gpu-shape-${flavor.cluster}-`,
      checkout => {
        ({ tree, original: untouched } = checkout);
      },
    );

    it('the bootstrap adopts the operator the repository installs: no second operator, nothing Karpenter, the team’s files kept, what to set said', async () => {
      const { changeSet: bootstrap } = await bootstrapShape(
        tree,
        profile(flavor),
      );
      const paths = bootstrap.changes.map(c => c.path);
      expect(paths.filter(p => !p.startsWith(`${clusterFolder}/gpu/`))).toEqual(
        [`${clusterFolder}/kustomization.yaml`],
      );
      expect(paths.join('\n')).not.toMatch(/karpenter|gpu-operator\//i);
      expect(bootstrap.notes.join('\n')).toContain(flavor.operatorNote);
      expect(bootstrap.notes.join('\n')).toContain(
        `Set the profile's \`devicePluginConfigMap.namespace\` to \`${flavor.configMapNamespace}\``,
      );
      const teamFiles = Object.keys(untouched).filter(
        file => file !== `${clusterFolder}/kustomization.yaml`,
      );
      for (const file of teamFiles) {
        expect([file, await tree.readFile(file)]).toEqual([
          file,
          untouched[file],
        ]);
      }
    });

    describe('once the team has set what the bootstrap said', () => {
      const cluster = profile(flavor, flavor.configMapNamespace);
      let bootstrapped: Record<string, string>;

      beforeAll(async () => {
        await fs.writeFile(
          path.join(tree.root, flavor.operatorFile),
          flavor.setOperatorConfigs(
            (await tree.readFile(flavor.operatorFile))!,
          ),
        );
        ({ bootstrapped } = await bootstrapShape(tree, cluster));
      });

      it.each([
        [
          't4-exclusive',
          { model: 't4', sharing: 'exclusive', replicas: 2, vramGiB: 12 },
        ],
        [
          't4-ts',
          {
            model: 't4',
            sharing: 'time-slicing',
            replicas: 6,
            vramGiB: 3,
            slicesPerGpu: 4,
          },
        ],
        [
          'a100-mig',
          { model: 'a100-40gb', sharing: 'mig', replicas: 3, vramGiB: 9 },
        ],
      ])(
        `%s: a ${flavor.machineTemplate.kind} of the planned machine, pods landing on its pool only, its GPU ConfigMaps in the workload cluster, clean, released to the byte`,
        async (name, gpu) => {
          let delivered: Record<string, any>[] = [];
          let generated: Record<string, any>[] = [];
          let appliedByManagement: Built[] = [];
          // Where only the workload cluster's objects live (CAPZ's operator
          // reads them in `default`, where the Cluster API objects are too).
          const workloadNamespaces = [flavor.configMapNamespace].filter(
            ns => ns !== 'default',
          );
          let crsErrors: string[] = ['not built'];
          const { change, findings } = await requestThenRelease(
            tree,
            shapeRequest(name, {
              gpu,
              workload: { image: `ghcr.io/acme/${name}:1.0` },
            }),
            cluster,
            async () => {
              const built = await kustomizeBuild(
                path.join(tree.root, clusterFolder),
              );
              const gpuConfigMap = (o: Record<string, any>) =>
                o.kind === 'ConfigMap' &&
                o.metadata.namespace === flavor.configMapNamespace &&
                [
                  cluster.devicePluginConfigMap.name,
                  cluster.migPartedConfigMap.name,
                ].includes(o.metadata.name);
              const carried = deliveredToWorkloadCluster(built, flavor.cluster);
              delivered = carried.delivered.filter(gpuConfigMap);
              crsErrors = carried.schemaErrors;
              appliedByManagement = built.filter(
                o =>
                  gpuConfigMap(o) ||
                  workloadNamespaces.includes(String(o.metadata.namespace)),
              );
              generated = await configMapsOfGpuFolder(
                tree,
                clusterFolder,
                cluster,
              );
            },
          );
          const pool = change.changeSet.changes.find(c =>
            c.path.endsWith(`/nodepools/${change.plan.pool.name}.yaml`),
          );
          const objects = parseAllDocuments(
            pool && pool.action !== 'delete' ? pool.content : '',
          ).map(d => d.toJS());
          expect(objects.map(o => o.kind)).toEqual([
            'MachineDeployment',
            flavor.machineTemplate.kind,
            'KubeadmConfigTemplate',
          ]);
          expect(
            objects[1].spec.template.spec[flavor.machineTemplate.machineField],
          ).toBe(change.plan.nodes.instanceType);
          // The management cluster has no GPU nodes: the pull request says
          // how the workload cluster gets the new workload's folder.
          expect(change.plan.warnings).toContainEqual(
            expect.stringContaining(
              `the new workload \`apps/ml/${name}/\` must be applied to the workload cluster \`${flavor.cluster}\`.`,
            ),
          );
          expect(change.plan.warnings.join('\n')).toContain(
            `\`spec.kubeConfig.secretRef.name: ${flavor.cluster}-kubeconfig\``,
          );
          expectLandsOnPlannedPool(change);
          // The management cluster applies none of the workload cluster's
          // objects; the ClusterResourceSet carries both GPU ConfigMaps,
          // exactly the GPU folder's config files (the request's own config
          // key or MIG entry in them).
          expect(appliedByManagement).toEqual([]);
          expect(generated.map(c => c.metadata.name).sort()).toEqual(
            [
              cluster.devicePluginConfigMap.name,
              cluster.migPartedConfigMap.name,
            ].sort(),
          );
          const byName = (a: Record<string, any>, b: Record<string, any>) =>
            a.metadata.name < b.metadata.name ? -1 : 1;
          expect([...delivered].sort(byName)).toEqual(
            [...generated].sort(byName),
          );
          const selectsPool =
            objects[2].spec.template.spec.joinConfiguration.nodeRegistration.kubeletExtraArgs.find(
              (a: { name: string }) => a.name === 'node-labels',
            ).value as string;
          const configLabel = /nvidia\.com\/device-plugin\.config=([^,]+)/.exec(
            selectsPool,
          )?.[1];
          // The pool's nodes select a key the workload cluster gets.
          const plugin = delivered.find(
            c => c.metadata.name === cluster.devicePluginConfigMap.name,
          );
          expect(Object.keys(plugin?.data ?? {})).toEqual(
            expect.arrayContaining(configLabel ? [configLabel] : ['default']),
          );
          expect(crsErrors).toEqual([]);
          expect(findings).toEqual([]);
          expect(await snapshot(tree)).toEqual(bootstrapped);
        },
      );
    });
  },
);
