/**
 * The libraries, loaded when a command first uses them: loading gpu-common
 * and gpu-node (and what they bring: zod, the Backstage integrations, the
 * Azure and GitHub clients) takes a second or more, the YAML library a
 * tenth, and `gpu-gitops --help` needs none of it; `plan` needs gpu-common
 * and YAML only. gpu-node's onboarding entry (import, bootstrap) is loaded
 * on its own, by the two commands that onboard a cluster.
 * `require`, not `import()`: the built package, Jest and the TypeScript
 * sources all run as CommonJS, where `require` of a package resolves alike.
 */
type GpuCommon = typeof import('@gpu-gitops/plugin-gpu-common');
type GpuNode = typeof import('@gpu-gitops/plugin-gpu-node');
type GpuNodeOnboarding =
  typeof import('@gpu-gitops/plugin-gpu-node/onboarding');
type Yaml = typeof import('yaml');

/** An object whose module is loaded on the first property read. */
function loadedOnFirstUse<T extends object>(load: () => T): T {
  let loaded: T | undefined;
  return new Proxy({} as T, {
    get: (_target, key) => Reflect.get((loaded ??= load()), key),
  });
}

export const gpuCommon = loadedOnFirstUse<GpuCommon>(() =>
  require('@gpu-gitops/plugin-gpu-common'),
);

export const gpuNode = loadedOnFirstUse<GpuNode>(() =>
  require('@gpu-gitops/plugin-gpu-node'),
);

export const gpuNodeOnboarding = loadedOnFirstUse<GpuNodeOnboarding>(() =>
  require('@gpu-gitops/plugin-gpu-node/onboarding'),
);

export const yaml = loadedOnFirstUse<Yaml>(() => require('yaml'));
