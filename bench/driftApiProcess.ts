/**
 * The drift benchmark's Kubernetes API, in a process of its own: the fake
 * API server (the unit tests') serving driftCluster(), so its work does not
 * count in the benchmark process's CPU. Started by startDriftApi(); answers
 * `{ url, caData }` once it listens and stops when its parent disconnects.
 */
import { fork } from 'node:child_process';
import { startKubernetesApiServer } from '@gpu-gitops/plugin-gpu-backend/src/__testUtils__/kubernetesApiServer';
import { driftCluster } from './driftCluster';

export const DRIFT_TOKEN = 'bench-service-account-token';

export async function startDriftApi(now: Date): Promise<{
  url: string;
  caData: string;
  stop(): void;
}> {
  const child = fork(__filename, [], {
    execArgv: [
      '-r',
      require.resolve('@backstage/cli-node/config/nodeTransform.cjs'),
    ],
    env: { ...process.env, GPU_DRIFT_BENCH_NOW: String(now.getTime()) },
  });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', code => reject(new Error(`drift API exited (${code})`)));
    // Backstage's node transform posts its own messages (files to watch).
    child.on('message', (message: { url?: string; caData?: string }) => {
      if (message.url && message.caData) {
        resolve({
          url: message.url,
          caData: message.caData,
          stop: () => child.kill(),
        });
      }
    });
  });
}

if (process.send && process.env.GPU_DRIFT_BENCH_NOW) {
  const now = new Date(Number(process.env.GPU_DRIFT_BENCH_NOW));
  startKubernetesApiServer({
    token: DRIFT_TOKEN,
    contents: driftCluster(now),
  }).then(
    api => {
      process.send!({ url: api.url, caData: api.caData });
      process.on('disconnect', () => process.exit(0));
    },
    error => {
      console.error(error);
      process.exit(1);
    },
  );
}
