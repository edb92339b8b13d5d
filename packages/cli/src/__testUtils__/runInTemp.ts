import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runCli } from '../main';

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

const workdirs: string[] = [];
// Registered in every test file that imports this helper.
afterAll(() => {
  for (const dir of workdirs.splice(0)) {
    rmSync(dir, { recursive: true, force: true });
  }
});

/** A temp working directory with the given files, for running the CLI in-process (removed after the file's tests). */
export function makeWorkdir(files: Record<string, string> = {}): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'gpu-gitops-cli-'));
  workdirs.push(dir);
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), content);
  }
  return dir;
}

export async function runIn(
  cwd: string,
  args: string[],
  env: Record<string, string | undefined> = {},
): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, {
    cwd,
    env,
    stdout: text => {
      stdout += text;
    },
    stderr: text => {
      stderr += text;
    },
  });
  return { code, stdout, stderr };
}

export function requestYaml(
  gpu: string,
  extra: { name?: string; workload?: string } = {},
): string {
  return [
    'kind: GpuRequest',
    `metadata: { name: ${extra.name ?? 'llm-inference'}, namespace: ml }`,
    'spec:',
    '  owner: group:default/ml-platform',
    '  gpu:',
    ...gpu.split('\n').map(line => `    ${line}`),
    '  workload:',
    `    ${extra.workload ?? 'image: ghcr.io/acme/llm:1.2'}`,
    '  capacityTypes: [on-demand]',
    '',
  ].join('\n');
}
