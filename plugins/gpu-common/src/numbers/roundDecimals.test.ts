import { roundDecimals } from './roundDecimals';

describe('roundDecimals', () => {
  it('rounds without binary noise', () => {
    expect(roundDecimals(0.1 + 0.2, 4)).toBe(0.3);
    expect(roundDecimals(1 / 7, 6)).toBe(0.142857);
    expect(roundDecimals(1.005, 2)).toBe(1.01);
    expect(roundDecimals(2 / 3, 0)).toBe(1);
  });
});
