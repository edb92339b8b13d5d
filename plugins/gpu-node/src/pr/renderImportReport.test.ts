import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  builtinCatalog,
  resolveClusterProfile,
} from '@gpu-gitops/plugin-gpu-common';
import { buildImportChange } from '../import/buildImportChange';
import { Redactor } from '../redact';
import { FsRepoTree } from '../repo/tree';
import { renderImportReport } from './renderImportReport';

const FIXTURE = path.join(__dirname, '../import/__fixtures__/v1alpha5-repo');
const SECRET = 'ghp_importReportSecret0123456789';

describe('renderImportReport', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'gpu-import-report-'));
    await fs.cp(FIXTURE, dir, { recursive: true });
    // A node template the import cannot convert, and a value that is a secret.
    await fs.writeFile(
      path.join(dir, 'clusters/legacy/karpenter/launch-template.yaml'),
      [
        'apiVersion: karpenter.k8s.aws/v1alpha1',
        'kind: AWSNodeTemplate',
        'metadata: { name: custom }',
        'spec:',
        '  launchTemplate: my-launch-template',
        '',
      ].join('\n'),
    );
    const provisioners = path.join(
      dir,
      'clusters/legacy/karpenter/provisioners.yaml',
    );
    await fs.writeFile(
      provisioners,
      (await fs.readFile(provisioners, 'utf8')).replace(
        'containerRuntime: containerd',
        `containerRuntime: ${SECRET}`,
      ),
    );
  });
  afterAll(() => fs.rm(dir, { recursive: true, force: true }));

  const render = async () => {
    const change = await buildImportChange({
      tree: new FsRepoTree(dir),
      dir,
      cluster: resolveClusterProfile({ name: 'legacy' }),
      catalog: builtinCatalog,
      owner: 'group:default/ml-platform',
      verify: false, // the kustomize check has its own tests; this is about words
    });
    return {
      change,
      report: renderImportReport({
        change,
        redactor: new Redactor([SECRET]),
      }),
    };
  };

  it('groups the findings in markdown and in text, from one view', async () => {
    const { change, report } = await render();
    const { body, text, view } = report;
    const section = (heading: string) => {
      const start = body.indexOf(`### ${heading}\n`);
      expect(start).toBeGreaterThanOrEqual(0);
      const end = body.indexOf('\n### ', start + 1);
      return body.slice(start, end < 0 ? undefined : end);
    };

    // Converted: one row per converted object, as the change lists them.
    expect(change.converted.length).toBeGreaterThan(0);
    for (const c of change.converted) {
      expect(section('Converted to Karpenter v1')).toContain(
        `| \`${c.path}\` | ${c.from} | ${c.to} |`,
      );
      expect(text).toContain(`  ${c.path}: ${c.from} -> ${c.to}\n`);
    }
    // Reported with its value: a field with no v1 equivalent (the secret redacted).
    const reported = section('Reported, with its value (no v1 equivalent)');
    expect(reported).toContain(
      '- `clusters/legacy/karpenter/provisioners.yaml` — Provisioner "gpu-t4", `spec.kubeletConfiguration.containerRuntime` = `"***"`',
    );
    expect(view.reported.every(f => f.value !== undefined)).toBe(true);
    // Left untouched, with its reason.
    const untouched = section('Left untouched');
    expect(untouched).toContain(
      '- `clusters/legacy/karpenter/launch-template.yaml` — AWSNodeTemplate "custom"',
    );
    expect(text).toMatch(
      /Left untouched:\n {2}clusters\/legacy\/karpenter\/launch-template\.yaml: AWSNodeTemplate "custom"/,
    );
    // Adopted pools and the records written.
    expect(section('GPU pools adopted')).toContain(
      '| `gpu-t4` | `clusters/legacy/karpenter/provisioners.yaml` | `t4` | time-slicing, 4 slices per GPU | `nvidia.com/gpu.shared` | ml/chat=3 |',
    );
    // Every count says its unit: Karpenter counts physical GPUs here.
    expect(section('GPU pools adopted')).toContain(
      '- `gpu-t4`: spec.limits nvidia.com/gpu: 4 counts GPUs',
    );
    expect(section('Request records written')).toContain(
      '| `ml/chat` | `requests/ml/chat.yaml` | `gpu-t4` | `apps/ml/chat/deployment.yaml` |',
    );
    expect(text).toContain(
      '  ml/chat -> requests/ml/chat.yaml (pool gpu-t4, workload apps/ml/chat/deployment.yaml)\n',
    );
    // Workloads: the legacy pool selector, reported and never changed.
    expect(section('Workloads')).toContain(
      '- `apps/ml/chat/deployment.yaml` — Deployment "ml/chat", `nodeSelector.karpenter.sh/provisioner-name` = `"gpu-t4"`',
    );
    // Each finding lands in exactly one group.
    const grouped =
      view.conversionNotes.length +
      view.reported.length +
      view.untouched.length +
      view.workloads.length;
    expect(grouped).toBe(change.findings.length);
    // Files, title and commit message.
    for (const c of change.changeSet.changes) {
      expect(section('Files')).toContain(`- ${c.action} \`${c.path}\``);
    }
    expect(report.title).toBe(
      `GPU import: cluster legacy — ${change.converted.length} object(s) converted to Karpenter v1, 2 GPU pool(s) adopted, 2 request record(s)`,
    );
    expect(report.commitMessage).toMatch(
      /^gpu\(import\/legacy\): adopt the existing GPU setup\n\n.*adopts 2 GPU pool\(s\) \(gpu-t4, gpu-a100-mig\)/,
    );
    // The secret is nowhere.
    for (const out of [body, text, report.title, report.commitMessage]) {
      expect(out).not.toContain(SECRET);
    }
  });

  it('says when there is nothing to import', async () => {
    const { report } = await render();
    const empty = renderImportReport({
      change: {
        ...(await render()).change,
        converted: [],
        adoptedPools: [],
        requests: [],
        findings: [],
        changeSet: { changes: [], empty: true },
      },
    });
    expect(report.view.empty).toBe(false);
    expect(empty.view.empty).toBe(true);
    expect(empty.text).toMatch(
      /^Import of cluster legacy \(clusters\/legacy\/\): nothing to change, the repository is adopted already\n/,
    );
    expect(empty.body).toContain(
      '### Converted to Karpenter v1\nNothing: no legacy Karpenter object.',
    );
    expect(empty.body).toContain('### Request records written\nNone.');
    // No file changes, so no pull request: its words are not used.
    expect(empty.body).not.toContain('This pull request');
    expect(empty.body).toContain('so no pull request is opened');
    expect(empty.title).toBe('GPU import: cluster legacy — nothing to import');
    expect(report.body).toContain('This pull request adopts');
  });
});
