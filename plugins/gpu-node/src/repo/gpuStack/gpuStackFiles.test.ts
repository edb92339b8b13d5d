/**
 * The files `readGpuStack` gets in a request's pass: git names the
 * candidates (`GPU_STACK_NEEDLES`, in any letter case), and every file with
 * a role holds one, so none the readers can use is left unread.
 */
import { execFileSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  ARGO_GPU_OPERATOR,
  ARGO_GPU_OPERATOR_WITHOUT_MIG_MANAGER,
  BOTTLEROCKET_NODE_CLASS,
  STATIC_DEVICE_PLUGIN,
  fluxDevicePluginChart,
} from '../../changes/bootstrap/__fixtures__/gpuStackShapes';
import { GitCheckoutTree } from '../gitCheckoutTree';
import { gpuStackFiles } from './gpuStackFiles';
import { LOCAL_CHART_APPLIER } from '../../changes/bootstrap/helmReleases/localChartReleases';
import {
  GPU_STACK_NEEDLES,
  STACK_MENTION,
  gpuStackFileRole,
} from './readGpuStack';

/**
 * The words a mention test matches, read back from the pattern itself (a
 * plain alternation of escaped literals, as `anyOfWords` builds it): a
 * word written into the pattern by hand shows here whatever list it skipped.
 */
const wordsOf = (pattern: RegExp) =>
  pattern.source.split(/(?<!\\)\|/).map(word => word.replace(/\\(.)/g, '$1'));

const isNeedle = (word: string) =>
  GPU_STACK_NEEDLES.some(needle => needle.toLowerCase() === word.toLowerCase());

const VALUES_CONFIG_MAP = `apiVersion: v1
kind: ConfigMap
metadata: {name: operator-values, namespace: gpu}
data:
  values.yaml: "migManager: {enabled: false}"
`;
const KUSTOMIZE_VALUES_GENERATOR = `configMapGenerator:
  - name: operator-values
    files: [values.yaml]
`;

describe('gpuStackFiles', () => {
  it('finds a stack word in every file that has a role, in whatever letter case it is written', () => {
    const withRoles = [
      STATIC_DEVICE_PLUGIN,
      fluxDevicePluginChart('    gfd: {}'),
      BOTTLEROCKET_NODE_CLASS,
      ARGO_GPU_OPERATOR,
      ARGO_GPU_OPERATOR_WITHOUT_MIG_MANAGER,
      VALUES_CONFIG_MAP,
      KUSTOMIZE_VALUES_GENERATOR,
    ];
    for (const text of withRoles) {
      expect(gpuStackFileRole(text)).toBeDefined();
      expect(
        GPU_STACK_NEEDLES.some(needle =>
          text.toLowerCase().includes(needle.toLowerCase()),
        ),
      ).toBe(true);
    }
  });

  it('greps for every word the stack and local-chart mention tests match, and each word alone gives a file its role', () => {
    const words = [...wordsOf(STACK_MENTION), ...wordsOf(LOCAL_CHART_APPLIER)];
    expect(words).toContain('argoproj.io');
    for (const word of words) {
      expect({ word, needle: isNeedle(word) }).toEqual({ word, needle: true });
      expect({ word, role: gpuStackFileRole(`note: ${word}\n`) }).toEqual({
        word,
        role: 'release',
      });
    }
    // Escaped, not a pattern: a dot matches a dot only.
    expect(gpuStackFileRole('note: argoprojXio\n')).toBeUndefined();
  });

  describe('over a git checkout', () => {
    let dir: string;
    beforeEach(async () => {
      dir = await fs.mkdtemp(path.join(os.tmpdir(), 'gpu-stack-files-'));
      const files: Record<string, string> = {
        // The chart's name in capitals: the role's test ignores case, so must git's.
        'infra/dp.yaml': STATIC_DEVICE_PLUGIN.replace(
          /device-plugin/g,
          'Device-Plugin',
        ),
        'infra/web.yaml':
          'apiVersion: v1\nkind: Service\nmetadata: {name: web}\n',
        'clusters/prod/nodeclass.yaml': BOTTLEROCKET_NODE_CLASS,
        'clusters/staging/nodeclass.yaml': BOTTLEROCKET_NODE_CLASS,
      };
      for (const [file, text] of Object.entries(files)) {
        await fs.mkdir(path.dirname(path.join(dir, file)), { recursive: true });
        await fs.writeFile(path.join(dir, file), text);
      }
      const git = (...args: string[]) =>
        execFileSync('git', args, { cwd: dir });
      git('init', '-q');
      git('add', '-A');
      git('-c', 'user.name=t', '-c', 'user.email=t@e', 'commit', '-qm', 'c');
    });
    afterEach(() => fs.rm(dir, { recursive: true, force: true }));

    it("gives the cluster's files with a role, in path order, and none of another cluster's", async () => {
      const files = await gpuStackFiles(
        new GitCheckoutTree(dir),
        undefined,
        'prod',
      );
      expect(files.map(file => file.path)).toEqual([
        'clusters/prod/nodeclass.yaml',
        'infra/dp.yaml',
      ]);
    });
  });
});
