import {
  claimsMediaEngines,
  isPlainMigProfile,
  parseMigProfileName,
} from './profileName';

describe('MIG profile names', () => {
  it('parses the grammar of mig-parted', () => {
    expect(parseMigProfileName('3g.20gb')).toEqual({
      gpuInstanceSlices: 3,
      memoryGB: 20,
      addedAttributes: [],
      removedAttributes: [],
    });
    expect(parseMigProfileName('1c.3g.20gb')?.computeInstanceSlices).toBe(1);
    expect(parseMigProfileName('1g.24gb+me.all')?.addedAttributes).toEqual([
      'me.all',
    ]);
    expect(parseMigProfileName('1g.24gb+me,gfx')?.addedAttributes).toEqual([
      'me',
      'gfx',
    ]);
    expect(parseMigProfileName('1g.24gb-me')?.removedAttributes).toEqual([
      'me',
    ]);
  });

  it.each([
    '',
    '3g',
    '3g.20',
    '3g.20GB',
    'g.20gb',
    '1g.10gb+foo',
    '1g.10gb-gfx',
    ' 1g.5gb',
  ])('rejects %j', name => {
    expect(parseMigProfileName(name)).toBeUndefined();
    expect(isPlainMigProfile(name)).toBe(false);
  });

  it('tells plain profiles and media-engine claims apart', () => {
    expect(isPlainMigProfile('1g.10gb')).toBe(true);
    expect(isPlainMigProfile('1g.10gb+me')).toBe(false);
    expect(isPlainMigProfile('1g.24gb-me')).toBe(false);
    expect(isPlainMigProfile('2g.48gb+gfx')).toBe(false);
    expect(isPlainMigProfile('1c.3g.20gb')).toBe(false);
    expect(claimsMediaEngines('1g.10gb+me')).toBe(true);
    expect(claimsMediaEngines('1g.24gb+me.all')).toBe(true);
    expect(claimsMediaEngines('1g.24gb-me')).toBe(false);
    expect(claimsMediaEngines('2g.48gb+gfx')).toBe(false);
  });
});
