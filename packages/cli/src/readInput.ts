import { promises as fs } from 'node:fs';
import path from 'node:path';
import type {
  ClusterProfile,
  GpuCatalog,
  GpuRequest,
} from '@gpu-gitops/plugin-gpu-common';
import { requireOption, type CommandOptions } from './options';
import { gpuCommon, yaml } from './libraries';

/** Request, cluster and catalog files are small; anything larger is refused unread. */
export const MAX_INPUT_BYTES = 1024 * 1024;

async function readBoundedFile(
  file: string,
  cwd: string,
  field: string,
): Promise<string> {
  const resolved = path.resolve(cwd, file);
  let size: number;
  try {
    const stat = await fs.stat(resolved);
    if (!stat.isFile()) {
      throw new gpuCommon.GpuInputError([
        { path: field, rule: 'file', message: `${file} is not a file` },
      ]);
    }
    size = stat.size;
  } catch (error) {
    if (error instanceof gpuCommon.GpuInputError) throw error;
    throw new gpuCommon.GpuInputError([
      { path: field, rule: 'file', message: `cannot read ${file}` },
    ]);
  }
  if (size > MAX_INPUT_BYTES) {
    throw new gpuCommon.GpuInputError([
      {
        path: field,
        rule: 'max-size',
        message: `${file} is ${size} bytes; the limit is ${MAX_INPUT_BYTES} bytes (1 MiB)`,
      },
    ]);
  }
  return fs.readFile(resolved, 'utf8');
}

export async function readRequestFile(
  file: string,
  cwd: string,
): Promise<GpuRequest> {
  return gpuCommon.parseGpuRequestYaml(
    await readBoundedFile(file, cwd, '--request'),
  );
}

/** Parses a small YAML config file (cluster profile, catalog override); aliases refused. */
async function readConfigYaml(
  file: string,
  cwd: string,
  field: string,
): Promise<unknown> {
  const text = await readBoundedFile(file, cwd, field);
  try {
    return yaml.parse(text, { maxAliasCount: 0, uniqueKeys: true });
  } catch (error) {
    throw new gpuCommon.GpuInputError([
      {
        path: field,
        rule: 'yaml',
        message: `${file} is not valid YAML: ${(error as Error).message.split('\n')[0]}`,
      },
    ]);
  }
}

export async function readClusterFile(
  file: string | undefined,
  cwd: string,
): Promise<ClusterProfile> {
  if (!file) return gpuCommon.resolveClusterProfile();
  return gpuCommon.resolveClusterProfile(
    await readConfigYaml(file, cwd, '--cluster'),
  );
}

export async function readCatalogFile(
  file: string | undefined,
  cwd: string,
): Promise<GpuCatalog> {
  if (!file) return gpuCommon.builtinCatalog;
  return gpuCommon.mergeCatalog(
    gpuCommon.builtinCatalog,
    await readConfigYaml(file, cwd, '--catalog'),
  );
}

/**
 * The cluster profile a request targets: the `--cluster` file when given
 * (its name must match the request's `spec.cluster`), else the built-in
 * profile named after `spec.cluster` (or "default").
 */
async function readRequestCluster(
  request: GpuRequest,
  file: string | undefined,
  cwd: string,
): Promise<ClusterProfile> {
  if (!file) {
    return gpuCommon.resolveClusterProfile(
      request.spec.cluster ? { name: request.spec.cluster } : undefined,
    );
  }
  const profile = await readClusterFile(file, cwd);
  if (request.spec.cluster && request.spec.cluster !== profile.name) {
    throw new gpuCommon.GpuInputError([
      {
        path: 'spec.cluster',
        rule: 'cluster-mismatch',
        message: `the request targets cluster "${request.spec.cluster}" but ${file} describes cluster "${profile.name}"`,
      },
    ]);
  }
  return profile;
}

/** What a request is planned with: `--request`, its cluster (`--cluster` or built-in) and the catalog (`--catalog` over the built-in one). */
export interface RequestInputs {
  request: GpuRequest;
  cluster: ClusterProfile;
  catalog: GpuCatalog;
}

/** Reads the `--request`, `--cluster` and `--catalog` files of `plan`, `render` and `pr`, in that order. */
export async function readRequestInputs(
  options: CommandOptions,
  cwd: string,
): Promise<RequestInputs> {
  const request = await readRequestFile(requireOption(options, 'request'), cwd);
  const cluster = await readRequestCluster(
    request,
    options.cluster as string | undefined,
    cwd,
  );
  const catalog = await readCatalogFile(
    options.catalog as string | undefined,
    cwd,
  );
  return { request, cluster, catalog };
}

/**
 * Cluster profiles by name for requests that name their cluster (the
 * updater re-renders stored requests): the `--cluster` file's profile for its
 * own name, the built-in profile named after the request's cluster otherwise.
 */
export async function readClusterLookup(
  file: string | undefined,
  cwd: string,
): Promise<(name: string | undefined) => ClusterProfile> {
  const fromFile = file ? await readClusterFile(file, cwd) : undefined;
  return name => {
    if (fromFile && (name === undefined || name === fromFile.name)) {
      return fromFile;
    }
    return gpuCommon.resolveClusterProfile(name ? { name } : undefined);
  };
}
