import { buildMigConfig } from '../manifests/migConfig';
import { migA100Plan } from '../manifests/__testUtils__/fixtures';
import {
  checkMigConfigEntries,
  checkMigPartedConfig,
  isMigProfileName,
} from './migPartedConfig';

function file(entries: unknown, name = 'all-3g.20gb') {
  return { version: 'v1', 'mig-configs': { [name]: entries } };
}
const rules = (config: unknown) =>
  checkMigPartedConfig(config).map(f => `${f.path}:${f.rule}`);

describe('checkMigPartedConfig', () => {
  it('finds nothing in a generated entry', () => {
    const built = buildMigConfig(migA100Plan)!;
    expect(checkMigPartedConfig(file(built.entries, built.name))).toEqual([]);
    expect(checkMigConfigEntries(built.entries, 'x')).toEqual([]);
  });

  it('requires version v1 and mig-configs, and nothing else at the top', () => {
    expect(
      rules({
        'mig-configs': { a: [{ devices: 'all', 'mig-enabled': false }] },
      }),
    ).toEqual(['version:version']);
    expect(rules({ version: 'v1', 'mig-configs': {} })).toEqual([
      'mig-configs:required',
    ]);
    expect(
      rules({ ...file([{ devices: 'all', 'mig-enabled': false }]), extra: 1 }),
    ).toEqual(['extra:unknown-key']);
  });

  it('checks devices, mig-enabled and unknown entry fields', () => {
    expect(
      rules(file([{ 'mig-enabled': true, 'mig-devices': { '1g.5gb': 7 } }])),
    ).toEqual(['mig-configs.all-3g.20gb[0].devices:required']);
    expect(
      rules(file([{ devices: 'some', 'mig-enabled': 'yes', mig: 1 }])),
    ).toEqual([
      'mig-configs.all-3g.20gb[0].mig:unknown-key',
      'mig-configs.all-3g.20gb[0].devices:devices',
      'mig-configs.all-3g.20gb[0].mig-enabled:type',
    ]);
    expect(rules(file([{ devices: [0, 1], 'mig-enabled': false }]))).toEqual(
      [],
    );
    expect(rules(file([]))).toEqual(['mig-configs.all-3g.20gb:required']);
  });

  it('checks mig-devices against mig-enabled, profile names and counts', () => {
    expect(rules(file([{ devices: 'all', 'mig-enabled': true }]))).toEqual([
      'mig-configs.all-3g.20gb[0].mig-devices:required',
    ]);
    expect(
      rules(file([{ devices: 'all', 'mig-enabled': true, 'mig-devices': {} }])),
    ).toEqual([]);
    expect(
      rules(
        file([
          {
            devices: 'all',
            'mig-enabled': false,
            'mig-devices': { '1g.5gb': 1 },
          },
        ]),
      ),
    ).toEqual(['mig-configs.all-3g.20gb[0].mig-devices:mig-disabled']);
    expect(
      rules(
        file([
          {
            devices: 'all',
            'mig-enabled': true,
            'mig-devices': { '3g20gb': 1, '1g.5gb': -1 },
          },
        ]),
      ),
    ).toEqual([
      'mig-configs.all-3g.20gb[0].mig-devices["3g20gb"]:mig-profile',
      'mig-configs.all-3g.20gb[0].mig-devices["1g.5gb"]:mig-count',
    ]);
    expect(
      rules(
        file([
          {
            devices: 'all',
            'mig-enabled': true,
            'mig-devices': { '1g.5gb': 0 },
          },
        ]),
      ),
    ).toEqual(['mig-configs.all-3g.20gb[0].mig-devices:mig-count']);
  });

  it('checks device-filter syntax', () => {
    expect(
      rules(
        file([
          {
            'device-filter': '0x20B010DE',
            devices: 'all',
            'mig-enabled': false,
          },
        ]),
      ),
    ).toEqual([]);
    expect(
      rules(
        file([
          {
            'device-filter': ['0x20B0', '0x20B010DE:0x145F10DE'],
            devices: 'all',
            'mig-enabled': false,
          },
        ]),
      ),
    ).toEqual(['mig-configs.all-3g.20gb[0].device-filter[0]:device-filter']);
  });

  it('knows the profile grammar', () => {
    for (const name of [
      '1g.10gb',
      '1g.10gb+me',
      '1g.24gb+me.all',
      '1g.24gb-me',
      '2g.48gb+gfx',
      '1c.3g.20gb',
      '7g.141gb',
    ]) {
      expect(isMigProfileName(name)).toBe(true);
    }
    for (const name of ['1g', 'g.10gb', '1g.10gb+xx', 'all-1g.10gb']) {
      expect(isMigProfileName(name)).toBe(false);
    }
  });
});
