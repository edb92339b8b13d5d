import { helmParameterValues } from './helmParameters';

describe('helmParameterValues: values typed as Helm types --set', () => {
  it('takes 0 and decimal integers not starting with 0 as numbers, the rest as strings, and any forceString value as a string', () => {
    const numbers = [
      ['zero', '0'],
      ['count', '12'],
      ['negative', '-3'],
      ['signed', '+4'],
      ['padded', '007'],
      ['decimal', '1.5'],
      ['word', '12a'],
    ].map(([name, value]) => ({ name, value }));
    expect(
      helmParameterValues([
        ...numbers,
        { name: 'forced', value: '0', forceString: true },
      ]),
    ).toEqual({
      zero: 0,
      count: 12,
      negative: -3,
      signed: 4,
      padded: '007',
      decimal: '1.5',
      word: '12a',
      forced: '0',
    });
  });
});
