import { compareStrings } from './compareStrings';

describe('compareStrings', () => {
  it('orders by code unit, whatever the locale: capitals first, no folding', () => {
    expect(['b', 'a', 'B', 'ä', 'a-b', 'ab'].sort(compareStrings)).toEqual([
      'B',
      'a',
      'a-b',
      'ab',
      'b',
      'ä',
    ]);
    expect(compareStrings('x', 'x')).toBe(0);
    expect(compareStrings('x', 'y')).toBe(-1);
    expect(compareStrings('y', 'x')).toBe(1);
  });
});
