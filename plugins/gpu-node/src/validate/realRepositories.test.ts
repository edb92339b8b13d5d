import {
  removeTempRepo,
  writeTempRepo,
} from '../changes/__fixtures__/gitopsRepo';
import {
  eksBlueprintsRepoFiles,
  karpenterResourcesChartFiles,
} from './__fixtures__/realRepos';
import {
  GitOpsTreeReport,
  validateGitOpsTreeReport,
  ValidateGitOpsTreeOptions,
} from './validateGitOpsTree';

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
});
