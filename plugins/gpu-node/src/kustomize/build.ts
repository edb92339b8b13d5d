import { spawn } from 'child_process';
import { resolve, sep } from 'path';
import { asKubernetesObject } from '../repo/yamlObjects';
import { parseYamlDocuments } from '../repo/yamlObjects';
import { findKustomizeBinary } from './binary';
import { kustomizeProcesses } from './buildsInFlight';
import { KustomizeBuildError } from './errors';

/**
 *  One object `kustomize build` printed.
 *
 * @public
 */
export type BuiltObject = NonNullable<ReturnType<typeof asKubernetesObject>>;

/** @public */
export interface KustomizeBuildOptions {
  /** Kill kustomize after this long (default 60 s): a build never hangs a review. */
  timeoutMs?: number;
  /**
   * Environment of the kustomize process, and where `KUSTOMIZE_BIN` is read
   * (default: this process's environment).
   */
  env?: Record<string, string | undefined>;
  /** Refuse output past this size (default 64 MiB) rather than hold it all. */
  maxOutputBytes?: number;
  /**
   * Folder that paths in kustomize's error are shown relative to (default:
   * the built folder); e.g. the repository root, so a reviewer sees
   * repository paths.
   */
  pathsRelativeTo?: string;
  /**
   * Inflate `helmCharts` (kustomize `--enable-helm`): needs a helm binary
   * on PATH and the charts' repositories (network).
   */
  enableHelm?: boolean;
}

export const DEFAULT_KUSTOMIZE_TIMEOUT_MS = 60_000;
const DEFAULT_MAX_OUTPUT_BYTES = 64 * 1024 * 1024;
/** How much of kustomize's error we keep: one error, which can be long. */
const ERROR_CHARS = 1000;

/**
 * kustomize's error, made readable: the `Error: ` prefix and any usage text
 * after it dropped, absolute paths of `relativeTo` shown relative to it (so
 * a message does not depend on where the tree was checked out), its lines
 * joined (kustomize quotes a generator's YAML config inside the message,
 * with the cause after it) and cut at a length a review comment can hold.
 */
export function kustomizeErrorDetail(
  stderr: string,
  relativeTo: string,
): string {
  const root = resolve(relativeTo);
  const lines = stderr
    .split('\n')
    .map(line => line.trim())
    .filter(line => line !== '');
  const usage = lines.findIndex(line => /^Usage:/.test(line));
  const text = (usage < 0 ? lines : lines.slice(0, usage))
    .join(' ')
    .replace(/^Error: /, '')
    .split(`${root}${sep}`)
    .join('')
    .split(root)
    .join('.');
  if (text === '') return 'kustomize failed without a message';
  return text.length > ERROR_CHARS ? `${text.slice(0, ERROR_CHARS)}…` : text;
}

/** One `kustomize build` process: its stdout, or why it failed. */
function runKustomize(
  binary: string,
  dir: string,
  options: KustomizeBuildOptions,
): Promise<string> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_KUSTOMIZE_TIMEOUT_MS;
  const maxOutput = options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES;
  return new Promise<string>((done, fail) => {
    const args = ['build', resolve(dir)];
    if (options.enableHelm) args.push('--enable-helm');
    const child = spawn(binary, args, {
      env: (options.env ?? process.env) as NodeJS.ProcessEnv,
      stdio: ['ignore', 'pipe', 'pipe'],
      // Its own process group on POSIX, so a timeout also ends any git that
      // kustomize started for a remote base.
      detached: process.platform !== 'win32',
      windowsHide: true,
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let outBytes = 0;
    let stopped: string | undefined;
    const stop = (why: string) => {
      if (stopped) return;
      stopped = why;
      try {
        if (process.platform !== 'win32' && child.pid !== undefined) {
          process.kill(-child.pid, 'SIGKILL');
        } else child.kill('SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    };
    const timer = setTimeout(
      () => stop(`kustomize build did not finish within ${timeoutMs} ms`),
      timeoutMs,
    );
    child.stdout.on('data', (chunk: Buffer) => {
      outBytes += chunk.length;
      if (outBytes > maxOutput) {
        stop(`kustomize build printed more than ${maxOutput} bytes`);
        return;
      }
      out.push(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.on('error', error => {
      clearTimeout(timer);
      fail(
        new KustomizeBuildError(dir, `cannot run ${binary}: ${error.message}`),
      );
    });
    child.on('close', code => {
      clearTimeout(timer);
      if (stopped) fail(new KustomizeBuildError(dir, stopped, true));
      else if (code !== 0) {
        fail(
          new KustomizeBuildError(
            dir,
            kustomizeErrorDetail(
              Buffer.concat(err).toString('utf8'),
              options.pathsRelativeTo ?? dir,
            ),
          ),
        );
      } else done(Buffer.concat(out).toString('utf8'));
    });
  });
}

/**
 * Runs `kustomize build DIR` with the real kustomize and returns the objects
 * it prints (the multi-document YAML parsed). Throws KustomizeBuildError
 * with kustomize's own message when the build fails or times out, and
 * KustomizeNotFoundError when no binary is installed.
 *
 * Runs with kustomize's safe defaults: the load restrictor stays
 * `LoadRestrictionsRootOnly`, and no `--enable-alpha-plugins` or
 * `--enable-exec` (nor `--enable-helm` unless asked), so a pull request
 * cannot make the check run programs.
 *
 * @public
 */
export async function kustomizeBuild(
  dir: string,
  options: KustomizeBuildOptions = {},
): Promise<BuiltObject[]> {
  const binary = findKustomizeBinary(options.env ?? process.env);
  // The timeout starts once the build has its slot: waiting is not hanging.
  const stdout = await kustomizeProcesses.run(() =>
    runKustomize(binary, dir, options),
  );
  const { documents, error } = parseYamlDocuments('kustomize build', stdout);
  if (error) {
    throw new KustomizeBuildError(
      dir,
      `kustomize printed invalid YAML: ${error}`,
    );
  }
  const objects: BuiltObject[] = [];
  for (const doc of documents) {
    const object = asKubernetesObject(doc.value);
    if (object) objects.push(object);
  }
  return objects;
}
