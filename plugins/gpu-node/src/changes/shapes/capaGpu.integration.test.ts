/**
 * A platform team's round on a Cluster API on AWS management repository
 * made from CAPA's own GPU flavor (`test/fixtures/capa-gpu-repo`, origins in
 * its README): the cluster's hand-written g4dn MachineDeployment, and the
 * GPU Operator a ClusterResourceSet applies to it as the plain manifests
 * `helm template` rendered. The bootstrap adopts that operator (its
 * ClusterPolicy) and says what to set in it; once the team has, one request
 * of each sharing mode the cluster runs (exclusive, time-slicing, MIG on a
 * p4d A100) lands on the pool the plan chose and no other, validates clean,
 * and its release gives every file back.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';
import { resolveClusterProfile } from '@gpu-gitops/plugin-gpu-common';
import { FsRepoTree } from '../../repo/tree';
import { buildBootstrapChangeSet } from '../bootstrap/bootstrapChangeSet';
import { writeChangeSet } from '../stagedTree';
import {
  checkoutShape,
  requestThenRelease,
  shapeRequest,
  snapshot,
} from './__testUtils__/shapeRound';

// The bootstrap, then each request and release built with the real kustomize.
jest.setTimeout(300_000);

const OPERATOR_FILE = 'clusters/ml-aws/gpu-operator-components.yaml';

const profile = (configMapNamespace?: string) =>
  resolveClusterProfile({
    name: 'ml-aws',
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
      clusterName: 'ml-aws',
      namespace: 'default',
      infrastructure: 'aws',
      kubernetesVersion: 'v1.33.1',
      autoscaler: false,
      // As the flavor's own workers: the external AWS cloud provider.
      kubeletExtraArgs: { 'cloud-provider': 'external' },
      aws: { iamInstanceProfile: 'nodes.cluster-api-provider-aws.sigs.k8s.io' },
    },
  });

const bootstrapOptions = { operatorChartVersion: 'v26.7.0', binPacking: false };

describe('the Cluster API on AWS repository made from CAPA’s GPU flavor', () => {
  let tree: FsRepoTree;
  let untouched: Record<string, string>;

  beforeAll(async () => {
    tree = await checkoutShape('capa-gpu-repo', 'gpu-shape-capa-');
    await fs.rm(path.join(tree.root, 'README.md'));
    untouched = await snapshot(tree);
  });
  afterAll(() => fs.rm(tree.root, { recursive: true, force: true }));

  it('the bootstrap adopts the GPU Operator the ClusterResourceSet applies: no second operator, nothing Karpenter, the team’s files kept, what to set said', async () => {
    const bootstrap = await buildBootstrapChangeSet(
      tree,
      profile(),
      bootstrapOptions,
    );
    const paths = bootstrap.changes.map(c => c.path);
    expect(paths.filter(p => !p.startsWith('clusters/ml-aws/gpu/'))).toEqual([
      'clusters/ml-aws/kustomization.yaml',
    ]);
    expect(paths.join('\n')).not.toMatch(/karpenter|gpu-operator\//i);
    expect(bootstrap.notes.join('\n')).toContain(
      'set `devicePlugin.config.name: nvidia-device-plugin-configs` in `spec` of ClusterPolicy `cluster-policy`',
    );
    expect(bootstrap.notes.join('\n')).toContain(
      "Set the profile's `devicePluginConfigMap.namespace` to `gpu-operator-resources`",
    );
    await writeChangeSet(tree, bootstrap);
    for (const file of Object.keys(untouched)) {
      if (file !== 'clusters/ml-aws/kustomization.yaml') {
        expect([file, await tree.readFile(file)]).toEqual([
          file,
          untouched[file],
        ]);
      }
    }
  });

  describe('once the team has set what the bootstrap said', () => {
    const cluster = profile('gpu-operator-resources');
    let bootstrapped: Record<string, string>;

    beforeAll(async () => {
      // The ClusterPolicy, edited where the bootstrap said.
      const documents = parseAllDocuments(
        (await tree.readFile(OPERATOR_FILE))!,
      );
      const policy = documents.find(d => d.get('kind') === 'ClusterPolicy')!;
      policy.setIn(['spec', 'devicePlugin', 'config'], {
        name: 'nvidia-device-plugin-configs',
        default: 'default',
      });
      policy.setIn(
        ['spec', 'migManager', 'config', 'name'],
        'custom-mig-parted-config',
      );
      await fs.writeFile(
        path.join(tree.root, OPERATOR_FILE),
        documents.map(d => d.toString()).join(''),
      );
      await writeChangeSet(
        tree,
        await buildBootstrapChangeSet(tree, cluster, bootstrapOptions),
      );
      bootstrapped = await snapshot(tree);
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
      '%s: an AWSMachineTemplate of the planned instance type, pods landing on its pool only, clean, released to the byte',
      async (name, gpu) => {
        const { change, findings } = await requestThenRelease(
          tree,
          shapeRequest(name, {
            gpu,
            workload: { image: `ghcr.io/acme/${name}:1.0` },
          }),
          cluster,
        );
        const pool = change.changeSet.changes.find(c =>
          c.path.endsWith(`/nodepools/${change.plan.pool.name}.yaml`),
        );
        const objects = parseAllDocuments(
          pool && pool.action !== 'delete' ? pool.content : '',
        ).map(d => d.toJS());
        expect(objects.map(o => o.kind)).toEqual([
          'MachineDeployment',
          'AWSMachineTemplate',
          'KubeadmConfigTemplate',
        ]);
        expect(objects[1].spec.template.spec.instanceType).toBe(
          change.plan.nodes.instanceType,
        );
        expect(change.verification?.unverifiable).toEqual([]);
        expect(change.verification?.landsOn).toEqual([change.plan.pool.name]);
        expect(findings).toEqual([]);
        expect(await snapshot(tree)).toEqual(bootstrapped);
      },
    );
  });
});
