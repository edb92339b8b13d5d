import { MPS_MAX_REPLICAS_MODERN } from '../catalog/mps';
import { isDns1123Subdomain } from '../request/formats';
import { isRecord, joinPath, type ValidationFinding } from './finding';
import {
  RESOURCE_KEYS,
  SHARING_KEYS,
  unknownKeys,
} from './devicePluginConfigKeys';

/** Max MPS clients per GPU: 48 at compute capability ≥ 7.5, else 16 (`catalog/mps.ts`). */
export const MPS_MAX_REPLICAS = MPS_MAX_REPLICAS_MODERN;

/** `NewResourceName`: `nvidia.com/` prefix added if missing, ≤ 63 chars, DNS-1123 subdomain after `/`. */
export function checkSharedResourceName(
  name: string,
  path: string,
): ValidationFinding[] {
  const full = name.includes('/') ? name : `nvidia.com/${name}`;
  const findings: ValidationFinding[] = [];
  if (full.length > 63) {
    findings.push({
      path,
      rule: 'resource-name',
      message: `resource name "${full}" is longer than 63 characters`,
    });
  }
  const [, suffix = ''] = full.split('/', 2);
  if (!isDns1123Subdomain(suffix) || full.split('/').length !== 2) {
    findings.push({
      path,
      rule: 'resource-name',
      message: `resource name "${full}" must be <prefix>/<DNS-1123 subdomain>`,
    });
  }
  return findings;
}

/**
 * Checks `sharing.timeSlicing` or `sharing.mps` at `path`; `mpsMaxReplicas`
 * is the MPS client limit of the GPU model.
 */
export function checkSharing(
  value: unknown,
  path: string,
  strategy: 'timeSlicing' | 'mps',
  mpsMaxReplicas: number,
): ValidationFinding[] {
  if (!isRecord(value)) {
    return [{ path, rule: 'type', message: `${path} must be a map` }];
  }
  const findings = unknownKeys(value, SHARING_KEYS, path);
  for (const key of ['renameByDefault', 'failRequestsGreaterThanOne']) {
    if (key in value && typeof value[key] !== 'boolean') {
      findings.push({
        path: `${path}.${key}`,
        rule: 'type',
        message: `${key} must be true or false`,
      });
    }
  }
  const resources = value.resources;
  if (!Array.isArray(resources) || resources.length === 0) {
    findings.push({
      path: `${path}.resources`,
      rule: 'resources-empty',
      message:
        'no resources specified: the plugin fails to start; omit the whole block instead',
    });
    return findings;
  }
  resources.forEach((resource, index) => {
    findings.push(
      ...resourceFindings(
        resource,
        joinPath(`${path}.resources`, index),
        strategy,
        mpsMaxReplicas,
      ),
    );
  });
  return findings;
}

/** One `sharing.<strategy>.resources[]` entry: its name, its replicas, the fields the plugin drops. */
function resourceFindings(
  resource: unknown,
  at: string,
  strategy: 'timeSlicing' | 'mps',
  mpsMaxReplicas: number,
): ValidationFinding[] {
  if (!isRecord(resource)) {
    return [
      {
        path: at,
        rule: 'type',
        message: 'each resource must be a map with name and replicas',
      },
    ];
  }
  const findings = unknownKeys(resource, RESOURCE_KEYS, at);
  if (typeof resource.name !== 'string' || resource.name === '') {
    findings.push({
      path: `${at}.name`,
      rule: 'required',
      message: 'no resource name specified',
    });
  } else {
    findings.push(...checkSharedResourceName(resource.name, `${at}.name`));
  }
  findings.push(
    ...replicasFindings(
      resource.replicas,
      `${at}.replicas`,
      strategy,
      mpsMaxReplicas,
    ),
  );
  if ('rename' in resource) {
    findings.push({
      path: `${at}.rename`,
      rule: 'ignored-field',
      message:
        'rename is not supported: the plugin drops it (use renameByDefault for <name>.shared)',
    });
  }
  if ('devices' in resource) {
    findings.push(...devicesFindings(resource.devices, `${at}.devices`));
  }
  return findings;
}

/** At least 2 replicas, whole, and no more MPS clients than the model allows. */
function replicasFindings(
  replicas: unknown,
  at: string,
  strategy: 'timeSlicing' | 'mps',
  mpsMaxReplicas: number,
): ValidationFinding[] {
  const findings: ValidationFinding[] = [];
  if (replicas === undefined) {
    findings.push({
      path: at,
      rule: 'required',
      message: 'no replicas specified',
    });
  } else if (typeof replicas !== 'number' || !Number.isInteger(replicas)) {
    findings.push({
      path: at,
      rule: 'type',
      message: 'replicas must be an integer',
    });
  } else if (replicas < 2) {
    findings.push({
      path: at,
      rule: 'min-replicas',
      message: 'number of replicas must be >= 2',
    });
  } else if (strategy === 'mps' && replicas > mpsMaxReplicas) {
    findings.push({
      path: at,
      rule: 'mps-max-replicas',
      message: `MPS allows at most ${mpsMaxReplicas} clients per GPU on this model; ${replicas} exceeds it`,
    });
  }
  return findings;
}

/** `devices`: parsed, but anything other than "all" is reset by the plugin. */
function devicesFindings(devices: unknown, at: string): ValidationFinding[] {
  const findings: ValidationFinding[] = [];
  const valid =
    devices === 'all' ||
    (typeof devices === 'number' && Number.isInteger(devices) && devices > 0) ||
    (Array.isArray(devices) &&
      devices.every(d => typeof d === 'string' || typeof d === 'number'));
  if (!valid) {
    findings.push({
      path: at,
      rule: 'devices',
      message:
        'devices must be "all", a positive count or a list of GPU indices / UUIDs',
    });
  } else if (devices !== 'all') {
    findings.push({
      path: at,
      rule: 'ignored-field',
      message: 'devices other than "all" are reset to "all" by the plugin',
    });
  }
  return findings;
}
