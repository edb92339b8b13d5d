import { isRecord, joinPath, type ValidationFinding } from './finding';
import { KNOWN_KEYS, unknownKeys } from './devicePluginConfigKeys';

const MIG_STRATEGIES = ['none', 'single', 'mixed'];
const DEVICE_LIST_STRATEGIES = [
  'envvar',
  'volume-mounts',
  'cdi-annotations',
  'cdi-cri',
];

function checkEnum(
  value: unknown,
  allowed: string[],
  path: string,
): ValidationFinding[] {
  if (
    value === undefined ||
    (typeof value === 'string' && allowed.includes(value))
  )
    return [];
  return [
    {
      path,
      rule: 'enum',
      message: `${path} must be one of ${allowed.join(', ')}`,
    },
  ];
}

/**
 * Checks the `flags` map: its keys and the values its enum fields take
 * (k8s-device-plugin v0.20.0 `api/config/v1/flags.go`, `validateFlags` in
 * `cmd/nvidia-device-plugin/main.go`).
 */
export function checkFlags(
  flags: Record<string, unknown>,
): ValidationFinding[] {
  const findings = unknownKeys(flags, KNOWN_KEYS.flags, 'flags');
  findings.push(
    ...checkEnum(flags.migStrategy, MIG_STRATEGIES, 'flags.migStrategy'),
  );
  findings.push(
    ...checkEnum(
      flags.deviceDiscoveryStrategy,
      ['auto', 'nvml', 'tegra'],
      'flags.deviceDiscoveryStrategy',
    ),
  );
  if (isRecord(flags.plugin)) {
    const plugin = flags.plugin;
    findings.push(
      ...unknownKeys(plugin, KNOWN_KEYS['flags.plugin'], 'flags.plugin'),
    );
    findings.push(
      ...checkEnum(
        plugin.deviceIDStrategy,
        ['uuid', 'index'],
        'flags.plugin.deviceIDStrategy',
      ),
    );
    findings.push(
      ...checkEnum(
        plugin.sharedDevicesAllocationPolicy,
        ['distributed', 'packed'],
        'flags.plugin.sharedDevicesAllocationPolicy',
      ),
    );
    const lists = plugin.deviceListStrategy;
    // A single string or a list of strings (`deviceListStrategyFlag` in
    // k8s-device-plugin v0.20.0 `api/config/v1/flags.go`).
    const entries: unknown[] = Array.isArray(lists) ? lists : [lists];
    entries
      .filter(entry => entry !== undefined)
      .forEach((entry, index) =>
        findings.push(
          ...checkEnum(
            entry,
            DEVICE_LIST_STRATEGIES,
            joinPath('flags.plugin.deviceListStrategy', index),
          ),
        ),
      );
  }
  if (isRecord(flags.gfd)) {
    findings.push(
      ...unknownKeys(flags.gfd, KNOWN_KEYS['flags.gfd'], 'flags.gfd'),
    );
  }
  return findings;
}
