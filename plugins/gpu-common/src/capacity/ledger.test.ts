import {
  formatLedger,
  parseLedger,
  withLedgerEntry,
  withoutLedgerEntry,
} from './ledger';

describe('pool ledger', () => {
  const ledger = [
    { request: 'ml/train', replicas: 3, unitsPerReplica: 2 },
    { request: 'ml/chat', replicas: 2, unitsPerReplica: 1 },
  ];

  it('is one sorted line, units per replica only when not 1', () => {
    expect(formatLedger(ledger)).toBe('ml/chat=2, ml/train=3x2');
    expect(formatLedger([])).toBe('');
  });

  it('reads back what it writes', () => {
    expect(parseLedger(formatLedger(ledger))).toEqual([
      { request: 'ml/chat', replicas: 2, unitsPerReplica: 1 },
      { request: 'ml/train', replicas: 3, unitsPerReplica: 2 },
    ]);
    expect(parseLedger('')).toEqual([]);
    expect(parseLedger(' ml/a=1 ,ml/b=2x4')).toHaveLength(2);
  });

  it('says "not a ledger" for text a hand edit broke', () => {
    expect(parseLedger('ml/a=two')).toBeUndefined();
    expect(parseLedger('chat=2')).toBeUndefined();
    expect(parseLedger(42)).toBeUndefined();
  });

  it('replaces, adds and removes one request', () => {
    const changed = withLedgerEntry(ledger, {
      request: 'ml/chat',
      replicas: 5,
      unitsPerReplica: 1,
    });
    expect(formatLedger(changed)).toBe('ml/chat=5, ml/train=3x2');
    expect(
      formatLedger(
        withLedgerEntry(ledger, {
          request: 'a/first',
          replicas: 1,
          unitsPerReplica: 1,
        }),
      ),
    ).toBe('a/first=1, ml/chat=2, ml/train=3x2');
    expect(formatLedger(withoutLedgerEntry(ledger, 'ml/train'))).toBe(
      'ml/chat=2',
    );
    expect(
      withLedgerEntry(ledger, {
        request: 'ml/chat',
        replicas: 0,
        unitsPerReplica: 1,
      }),
    ).toHaveLength(1);
  });
});
