import { spawn } from 'node:child_process';

/**
 * Runs one git command and resolves with its stdout; rejects with its
 * stderr (then stdout) when it exits non-zero.
 *
 * The publisher's hot path spawns git directly rather than through
 * simple-git: simple-git waits 50 ms after every command that prints
 * nothing (`clone --quiet`, `sparse-checkout set`, `add`), which was a
 * third of a cold `gpu-gitops pr` on a big repository (`npm run bench -- pr`).
 * Commit messages go through stdin, never argv.
 */
export function runGit(
  cwd: string,
  args: string[],
  env: Record<string, string>,
  stdin?: string,
): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    const child = spawn('git', args, {
      cwd,
      env,
      stdio: [stdin === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout!.on('data', d => (out += d));
    child.stderr!.on('data', d => (err += d));
    child.on('error', reject);
    child.on('close', code =>
      code === 0
        ? resolve(out)
        : reject(new Error(`${err}${out}`.trim() || `exit code ${code}`)),
    );
    if (stdin !== undefined) child.stdin!.end(stdin);
  });
}
