/**
 * Issue 23: "the bootstrap told the team requests would use their key of 4
 * time-slices per GPU, then a 4-slice request was refused and asked for a
 * duplicate key under a hash name". On disk, start to finish: the team's
 * ConfigMap holds NVIDIA's "Shared Access to GPUs" key (`renameByDefault:
 * false`), the bootstrap's note names it with the resource it gives, and a
 * 4-slice request then runs on that key, asking for `nvidia.com/gpu`,
 * merged and built with the real kustomize.
 */
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';
import {
  builtinCatalog,
  resolveClusterProfile,
} from '@gpu-gitops/plugin-gpu-common';
import { FsRepoTree } from '../../repo/tree';
import { buildRequestChange } from '../buildRequestChange';
import { mlRequest } from '../__fixtures__/requests';
import { writeChangeSet } from '../stagedTree';
import { buildBootstrapChangeSet } from './bootstrapChangeSet';

jest.setTimeout(180_000);

const cluster = resolveClusterProfile({
  name: 'prod',
  devicePluginConfigMap: {
    name: 'time-slicing-config',
    namespace: 'gpu-operator',
  },
});

/** The team's ConfigMap, as NVIDIA's GPU Operator docs write it ("Time-Slicing GPUs in Kubernetes"). */
const TEAM_CONFIG_MAP = `apiVersion: v1
kind: ConfigMap
metadata:
  name: time-slicing-config
  namespace: gpu-operator
data:
  any: |-
    version: v1
    flags:
      migStrategy: none
  ts-4: |-
    version: v1
    flags:
      migStrategy: none
    sharing:
      timeSlicing:
        renameByDefault: false
        failRequestsGreaterThanOne: false
        resources:
          - name: nvidia.com/gpu
            replicas: 4
`;

describe('a hand-written device-plugin key with renameByDefault false', () => {
  let dir: string;
  let tree: FsRepoTree;
  beforeAll(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'gpu-team-key-'));
    tree = new FsRepoTree(dir);
    await tree.writeFile(
      'clusters/prod/gpu-operator-config/time-slicing-config.yaml',
      TEAM_CONFIG_MAP,
    );
  });
  afterAll(async () => {
    await fs.rm(dir, { recursive: true, force: true });
  });

  it('the bootstrap says requests use it, with the resource it gives; a 4-slice request then runs on it asking for nvidia.com/gpu', async () => {
    const bootstrap = await buildBootstrapChangeSet(tree, cluster, {
      operatorChartVersion: 'v26.7.0',
      binPacking: false,
    });
    expect(bootstrap.notes).toContainEqual(
      expect.stringContaining(
        'Requests use only its keys: `any` (whole GPUs), `ts-4` (time-slicing, 4 per GPU, as `nvidia.com/gpu`)',
      ),
    );
    await writeChangeSet(tree, bootstrap);

    const change = await buildRequestChange({
      tree,
      dir,
      request: mlRequest(
        'summarizer',
        {
          model: 't4',
          sharing: 'time-slicing',
          replicas: 4,
          vramGiB: 3,
          slicesPerGpu: 4,
        },
        { cluster: 'prod' },
      ),
      cluster,
      catalog: builtinCatalog,
    });
    expect(change.plan.sharing.deviceConfigName).toBe('ts-4');
    expect(change.plan.resourceName).toBe('nvidia.com/gpu');
    const paths = change.changeSet.changes.map(c => c.path);
    // No duplicate key under a hash name: the team's ConfigMap stays as it is.
    expect(paths.filter(p => p.includes('device-plugin'))).toEqual([]);
    await writeChangeSet(tree, change.changeSet);
    const pool = parseAllDocuments(
      (await tree.readFile(
        `clusters/prod/gpu/nodepools/${change.plan.pool.name}.yaml`,
      ))!,
    ).map(d => d.toJS());
    expect(
      pool[0].spec.template.metadata.labels['nvidia.com/device-plugin.config'],
    ).toBe('ts-4');
    for (const overlay of pool.filter(o => o.kind === 'NodeOverlay')) {
      expect(Object.keys(overlay.spec.capacity)).toEqual(['nvidia.com/gpu']);
    }
    const [deployment] = parseAllDocuments(
      (await tree.readFile('apps/ml/summarizer/deployment.yaml'))!,
    ).map(d => d.toJS());
    expect(
      deployment.spec.template.spec.containers[0].resources.limits,
    ).toEqual({ 'nvidia.com/gpu': '1' });
  });
});
