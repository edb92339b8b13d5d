import { promises as fs } from 'node:fs';
import path from 'node:path';
import type {
  ClusterProfile,
  KubernetesObject,
  ManifestSet,
} from '@gpu-gitops/plugin-gpu-common';
import type { CliIo } from '../io';
import { EXIT_OK } from '../exitCodes';
import type { CommandOptions } from '../options';
import { readRequestInputs } from '../readInput';
import { UsageError } from '../usageError';
import { gpuCommon, gpuNode, yaml } from '../libraries';

/**
 * `--stdout`: the Kubernetes objects of the plan as one multi-document stream,
 * with the device-plugin and mig-parted entries shown as the ConfigMaps the
 * repository's configMapGenerator builds (only this request's keys).
 */
export function manifestStream(
  manifests: ManifestSet,
  cluster: ClusterProfile,
): string {
  const objects: KubernetesObject[] = [...manifests.pool.objects];
  if (manifests.devicePluginConfig) {
    const { name, config } = manifests.devicePluginConfig;
    objects.push(
      configMap(cluster.devicePluginConfigMap, {
        [name]: yaml.stringify(config),
      }),
    );
  }
  if (manifests.migConfig) {
    const { name, entries } = manifests.migConfig;
    objects.push(
      configMap(cluster.migPartedConfigMap, {
        'config.yaml': yaml.stringify({
          version: 'v1',
          'mig-configs': { [name]: entries },
        }),
      }),
    );
  }
  objects.push(...manifests.workload.objects);
  return objects.map(o => `---\n${yaml.stringify(o)}`).join('');
}

function configMap(
  ref: { name: string; namespace: string },
  data: Record<string, string>,
): KubernetesObject {
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: ref.name, namespace: ref.namespace },
    data,
  };
}

/** Renders a request into a GitOps tree (`--out`) or onto stdout. */
export async function runRender(
  options: CommandOptions,
  io: CliIo,
): Promise<number> {
  const out = options.out as string | undefined;
  if (!out === !options.stdout) {
    throw new UsageError('give exactly one of --out DIR or --stdout');
  }
  const { request, cluster, catalog } = await readRequestInputs(
    options,
    io.cwd,
  );

  if (options.stdout) {
    if (request.spec.workload.existing) {
      // A patch written without reading the workload would target the
      // wrong container and change fields nobody asked to change.
      throw new gpuCommon.GpuInputError([
        {
          path: 'spec.workload.existing',
          rule: 'needs-repository',
          message:
            'an existing workload is patched from what the repository holds: use --out DIR (a checkout of the GitOps repository) or gpu-gitops pr',
        },
      ]);
    }
    const result = gpuCommon.plan(request, catalog, cluster);
    io.stdout(
      manifestStream(
        gpuCommon.buildManifests(result, cluster, { catalog }),
        cluster,
      ),
    );
    return EXIT_OK;
  }

  // --out: plan against what the directory holds (a checkout of the GitOps
  // repository, its cluster bootstrapped), then write the change set only
  // after every check passed (invalid input writes nothing). What is wrong
  // with the request itself is said first.
  gpuCommon.plan(request, catalog, cluster);
  const dir = path.resolve(io.cwd, out!);
  const existing = await fs.stat(dir).catch(() => undefined);
  if (!existing?.isDirectory()) {
    throw new gpuCommon.GpuInputError([
      {
        path: '--out',
        rule: 'directory',
        message: `${out} is not a directory: give a checkout of the GitOps repository`,
      },
    ]);
  }
  const { changeSet } = await gpuNode.buildRequestChange({
    tree: new gpuNode.FsRepoTree(dir),
    dir,
    request,
    cluster,
    catalog,
    onSkipped: (file, reason) => io.stderr(`skipped ${file}: ${reason}\n`),
  });
  await gpuNode.writeChangeSet(new gpuNode.FsRepoTree(dir), changeSet);
  io.stdout(
    changeSet.empty
      ? `${out} already holds this request; nothing written\n`
      : changeSet.changes.map(c => `${c.action} ${c.path}\n`).join(''),
  );
  return EXIT_OK;
}
