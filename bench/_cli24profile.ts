import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runCli } from '@gpu-gitops/cli';
import { createBigRepository } from './prCommand.bench';

export async function main() {
  const root = await fs.mkdtemp(path.join(os.tmpdir(), 'gpu-prof-pr-'));
  const bare = createBigRepository(root);
  await fs.writeFile(path.join(root, 'cluster.yaml'), 'name: prod\n');
  for (const [i, name] of ['one', 'two'].entries()) {
    await fs.writeFile(path.join(root, 'req.yaml'), `kind: GpuRequest
metadata: { name: ${name}, namespace: ml }
spec:
  owner: group:default/ml-platform
  gpu: { model: t4, sharing: time-slicing, replicas: ${i + 1}, vramGiB: 4 }
  workload: { image: ghcr.io/acme/llm:1.2 }
`);
    let out = '';
    const code = await runCli(['pr', '--request', 'req.yaml', '--repo', `file://${bare}`, '--cluster', 'cluster.yaml', '--cache-dir', path.join(root, 'cache'), '--json'],
      { cwd: root, env: {}, stdout: t => { out += t; }, stderr: () => {} });
    const r = JSON.parse(out);
    console.log(code, JSON.stringify(r.stages.filter((s: any) => s.ms > 50)));
  }
  console.log('ROOT', root);
}
