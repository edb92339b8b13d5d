import { isRecord, joinPath, type ValidationFinding } from './finding';

/**
 * Rules of the mig-parted config file (NVIDIA mig-parted v0.15.0
 * `api/spec/v1/spec.go`).
 * mig-parted parses strictly ("unexpected field"), so unknown keys are errors
 * there. Whether a layout physically fits one GPU is checked with `fitMig`.
 */

const ENTRY_KEYS = ['device-filter', 'devices', 'mig-enabled', 'mig-devices'];

/** `<G>g.<GB>gb` or `<C>c.<G>g.<GB>gb`, then optional `+attr[,attr]` or `-attr` (me, me.all, gfx). */
const PROFILE =
  /^(\d+c\.)?\d+g\.\d+gb([+-](me|me\.all|gfx)(,(me|me\.all|gfx))*)?$/;

/** `0x<device><vendor>` with an optional `:0x<subdevice><subvendor>`. */
const DEVICE_FILTER = /^0x[0-9a-fA-F]{8}(:0x[0-9a-fA-F]{8})?$/;

export function isMigProfileName(name: string): boolean {
  return PROFILE.test(name);
}

/** Checks the entries of one `mig-configs.<name>` list. */
export function checkMigConfigEntries(
  entries: unknown,
  path: string,
): ValidationFinding[] {
  if (!Array.isArray(entries) || entries.length === 0) {
    return [
      {
        path,
        rule: 'required',
        message: `${path} must be a non-empty list of entries`,
      },
    ];
  }
  return entries.flatMap((entry, index) => {
    const at = joinPath(path, index);
    if (!isRecord(entry)) {
      return [{ path: at, rule: 'type', message: 'each entry must be a map' }];
    }
    return [
      ...unknownKeyFindings(entry, at),
      ...deviceFilterFindings(entry['device-filter'], `${at}.device-filter`),
      ...devicesFindings(entry.devices, `${at}.devices`),
      ...migEnabledFindings(entry, at),
    ];
  });
}

/** mig-parted parses strictly: an unknown key fails the whole file. */
function unknownKeyFindings(
  entry: Record<string, unknown>,
  at: string,
): ValidationFinding[] {
  return Object.keys(entry)
    .filter(key => !ENTRY_KEYS.includes(key))
    .map(key => ({
      path: `${at}.${key}`,
      rule: 'unknown-key',
      message: `unexpected field "${key}": mig-parted rejects the file`,
    }));
}

/** `device-filter`: one filter or a list of them. */
function deviceFilterFindings(
  filter: unknown,
  at: string,
): ValidationFinding[] {
  if (filter === undefined) return [];
  const filters = Array.isArray(filter) ? filter : [filter];
  return filters.flatMap((f, i) =>
    typeof f === 'string' && DEVICE_FILTER.test(f)
      ? []
      : [
          {
            path: Array.isArray(filter) ? joinPath(at, i) : at,
            rule: 'device-filter',
            message: `device-filter "${String(f)}" must look like 0x20B010DE (device id + vendor id)`,
          },
        ],
  );
}

function devicesFindings(devices: unknown, at: string): ValidationFinding[] {
  if (devices === undefined) {
    return [
      {
        path: at,
        rule: 'required',
        message: 'devices is required: "all" or a list of GPU indices',
      },
    ];
  }
  const valid =
    devices === 'all' ||
    (Array.isArray(devices) &&
      devices.every(
        d => typeof d === 'number' && Number.isInteger(d) && d >= 0,
      ));
  if (valid) return [];
  return [
    {
      path: at,
      rule: 'devices',
      message: 'devices must be "all" or a list of GPU indices',
    },
  ];
}

/** `mig-enabled` is required; `mig-devices` is required when it is true and empty when false. */
function migEnabledFindings(
  entry: Record<string, unknown>,
  at: string,
): ValidationFinding[] {
  const findings: ValidationFinding[] = [];
  const enabled = entry['mig-enabled'];
  if (typeof enabled !== 'boolean') {
    findings.push({
      path: `${at}.mig-enabled`,
      rule: enabled === undefined ? 'required' : 'type',
      message: 'mig-enabled is required and must be true or false',
    });
  }
  const migDevices = entry['mig-devices'];
  if (enabled === true) {
    findings.push(...migDevicesFindings(migDevices, `${at}.mig-devices`));
  } else if (
    enabled === false &&
    isRecord(migDevices) &&
    Object.keys(migDevices).length > 0
  ) {
    findings.push({
      path: `${at}.mig-devices`,
      rule: 'mig-disabled',
      message: 'mig-devices must be empty when mig-enabled is false',
    });
  }
  return findings;
}

/** The instances of a MIG-enabled entry: profile names and whole counts, at least one above 0. */
function migDevicesFindings(
  migDevices: unknown,
  at: string,
): ValidationFinding[] {
  if (!isRecord(migDevices)) {
    return [
      {
        path: at,
        rule: 'required',
        message:
          'mig-devices is required when mig-enabled is true ({} for none)',
      },
    ];
  }
  const findings: ValidationFinding[] = [];
  const counts = Object.entries(migDevices);
  for (const [profile, count] of counts) {
    const p = `${at}["${profile}"]`;
    if (!isMigProfileName(profile)) {
      findings.push({
        path: p,
        rule: 'mig-profile',
        message: `"${profile}" is not a MIG profile name like 1g.10gb, 1c.3g.20gb or 1g.10gb+me`,
      });
    }
    if (typeof count !== 'number' || !Number.isInteger(count) || count < 0) {
      findings.push({
        path: p,
        rule: 'mig-count',
        message: 'instance counts must be integers >= 0',
      });
    }
  }
  if (counts.length > 0 && counts.every(([, count]) => count === 0)) {
    findings.push({
      path: at,
      rule: 'mig-count',
      message: 'at least one instance count must be above 0',
    });
  }
  return findings;
}

/**
 *  Checks a whole mig-parted config file (`version: v1`, `mig-configs`).
 *
 * @public
 */
export function checkMigPartedConfig(config: unknown): ValidationFinding[] {
  if (!isRecord(config)) {
    return [
      { path: '', rule: 'type', message: 'a mig-parted config must be a map' },
    ];
  }
  const findings: ValidationFinding[] = [];
  for (const key of Object.keys(config)) {
    if (key !== 'version' && key !== 'mig-configs') {
      findings.push({
        path: key,
        rule: 'unknown-key',
        message: `unexpected field "${key}": mig-parted rejects the file`,
      });
    }
  }
  if (config.version !== 'v1') {
    findings.push({
      path: 'version',
      rule: 'version',
      message: 'version is required and must be v1',
    });
  }
  const configs = config['mig-configs'];
  if (!isRecord(configs) || Object.keys(configs).length === 0) {
    findings.push({
      path: 'mig-configs',
      rule: 'required',
      message: 'mig-configs must hold at least one named config',
    });
    return findings;
  }
  for (const [name, entries] of Object.entries(configs)) {
    findings.push(...checkMigConfigEntries(entries, `mig-configs.${name}`));
  }
  return findings;
}
