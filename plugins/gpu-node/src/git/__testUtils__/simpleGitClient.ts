/**
 * simple-git for tests and their helpers that drive real repositories (the
 * publisher itself runs git through runGit; see why there).
 *
 * simple-git guards the child environment: GIT_* variables we set on purpose
 * (auth header via GIT_CONFIG_*, author identity, no prompts) must be named in
 * `allowEnvironment`, and the GIT_CONFIG_COUNT route needs its unsafe flag.
 */
import { simpleGit, SimpleGit } from 'simple-git';

export function createSimpleGit(
  baseDir: string,
  env: Record<string, string>,
): SimpleGit {
  const allowEnvironment = Object.keys(env).filter(k =>
    k.toUpperCase().startsWith('GIT_'),
  );
  return simpleGit({
    baseDir,
    allowEnvironment,
    unsafe: { allowUnsafeConfigEnvCount: true },
  }).env(env);
}
