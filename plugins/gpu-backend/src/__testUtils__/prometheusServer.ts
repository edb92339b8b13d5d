/**
 * A real Prometheus for utilization tests: Debian's `prometheus` and
 * `promtool` (`.ci/run` installs them), a throw-away data folder, a free
 * loopback port. History is backfilled from OpenMetrics text with
 * `promtool tsdb create-blocks-from openmetrics` before the server starts,
 * and it may scrape live targets too.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from './freePort';

const PROMETHEUS = '/usr/bin/prometheus';
const PROMTOOL = '/usr/bin/promtool';

export interface PrometheusServer {
  baseUrl: string;
  stop(): Promise<void>;
}

function requireBinaries(): void {
  for (const binary of [PROMETHEUS, PROMTOOL]) {
    if (!existsSync(binary)) {
      throw new Error(
        `${binary} is missing (Debian package \`prometheus\`; \`.ci/run\` installs it)`,
      );
    }
  }
}

export async function startPrometheus(options: {
  /** OpenMetrics text (ending in `# EOF`) to backfill before start. */
  history?: string;
  /** `host:port` targets to scrape at `scrapeInterval`. */
  scrape?: string[];
  scrapeInterval?: string;
}): Promise<PrometheusServer> {
  requireBinaries();
  const dir = mkdtempSync(path.join(tmpdir(), 'gpu-prometheus-'));
  const data = path.join(dir, 'data');
  if (options.history) {
    const file = path.join(dir, 'history.om');
    writeFileSync(file, options.history);
    const backfill = spawnSync(
      PROMTOOL,
      ['tsdb', 'create-blocks-from', 'openmetrics', file, data],
      { encoding: 'utf8' },
    );
    if (backfill.status !== 0) {
      throw new Error(`promtool backfill failed: ${backfill.stderr}`);
    }
  }
  const config = path.join(dir, 'prometheus.yml');
  writeFileSync(
    config,
    [
      'global:',
      `  scrape_interval: ${options.scrapeInterval ?? '1s'}`,
      'scrape_configs:',
      '  - job_name: dcgm-exporter',
      `    static_configs: [{ targets: [${(options.scrape ?? []).map(t => `"${t}"`).join(', ')}] }]`,
      '',
    ].join('\n'),
  );
  const port = await freePort();
  const child: ChildProcess = spawn(
    PROMETHEUS,
    [
      `--config.file=${config}`,
      `--storage.tsdb.path=${data}`,
      `--web.listen-address=127.0.0.1:${port}`,
      '--storage.tsdb.retention.time=30d',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let log = '';
  child.stderr?.on('data', chunk => {
    log = (log + String(chunk)).slice(-4000);
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode === null) {
      const exited = new Promise(resolve => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) {
      await stop();
      throw new Error(`prometheus exited: ${log}`);
    }
    const ready = await fetch(`${baseUrl}/-/ready`, {
      signal: AbortSignal.timeout(1000),
    }).then(
      r => r.ok,
      () => false,
    );
    if (ready) return { baseUrl, stop };
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`prometheus did not get ready in 30 s: ${log}`);
    }
    await new Promise(resolve => setTimeout(resolve, 200));
  }
}
