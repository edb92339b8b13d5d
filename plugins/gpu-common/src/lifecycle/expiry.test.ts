import { isGpuInputError } from '../errors';
import { parseGpuRequest } from '../request/schema';
import { gpuRequestFromFormValues } from '../request/formValues';
import {
  checkExpiryAtCreation,
  daysUntilExpiry,
  expiresAfterDays,
  expiryLabel,
  isExpired,
} from './expiry';

const now = new Date('2026-11-24T10:00:00.000Z');

const request = (expiresAt?: string) =>
  parseGpuRequest({
    kind: 'GpuRequest',
    metadata: { name: 'trial', namespace: 'ml' },
    spec: {
      owner: 'group:default/ml-platform',
      gpu: { model: 't4', sharing: 'exclusive', replicas: 1, vramGiB: 8 },
      workload: { image: 'ghcr.io/acme/trial:1' },
      ...(expiresAt ? { expiresAt } : {}),
    },
  });

describe('request expiry', () => {
  it('"release after N days" is N whole days from the clock given, through the form values', () => {
    expect(expiresAfterDays(7, now)).toBe('2026-12-01T10:00:00.000Z');
    const fromForm = gpuRequestFromFormValues(
      {
        name: 'trial',
        namespace: 'ml',
        owner: 'group:default/ml-platform',
        vramGiB: 8,
        image: 'ghcr.io/acme/trial:1',
        releaseAfterDays: 3,
      },
      now,
    );
    expect(fromForm.spec.expiresAt).toBe('2026-11-27T10:00:00.000Z');
    expect(parseGpuRequest(fromForm).spec.expiresAt).toBe(
      '2026-11-27T10:00:00.000Z',
    );
    // A blank form field means no expiry.
    expect(
      gpuRequestFromFormValues(
        {
          name: 'trial',
          namespace: 'ml',
          owner: 'group:default/ml-platform',
          vramGiB: 8,
          releaseAfterDays: '',
        },
        now,
      ).spec,
    ).not.toHaveProperty('expiresAt');
    for (const days of [0, -1, 1.5, 366]) {
      const error = (() => {
        try {
          return expiresAfterDays(days, now);
        } catch (e) {
          return e;
        }
      })();
      expect(isGpuInputError(error)).toBe(true);
      expect((error as any).issues[0]).toMatchObject({
        path: 'spec.expiresAt',
        rule: 'release-after-days',
      });
    }
  });

  it('counts whole days left, rounded up, and says it as the card does', () => {
    const in36h = request('2026-11-25T22:00:00Z');
    expect(daysUntilExpiry(in36h, now)).toBe(2);
    expect(expiryLabel(2)).toBe('expires in 2 days');
    expect(expiryLabel(1)).toBe('expires in 1 day');
    expect(isExpired(in36h, now)).toBe(false);
    const atNow = request('2026-11-24T10:00:00Z');
    expect(daysUntilExpiry(atNow, now)).toBe(0);
    expect(isExpired(atNow, now)).toBe(true);
    expect(expiryLabel(0)).toBe('expired, release pending');
    expect(daysUntilExpiry(request(), now)).toBeUndefined();
    expect(isExpired(request(), now)).toBe(false);
    // Another zone, the same instant.
    expect(daysUntilExpiry(request('2026-11-26T11:00:00+01:00'), now)).toBe(2);
  });

  it('refuses a request sent with an expiry in the past, naming the field', () => {
    expect(() =>
      checkExpiryAtCreation(request('2026-12-01T00:00:00Z'), now),
    ).not.toThrow();
    expect(() => checkExpiryAtCreation(request(), now)).not.toThrow();
    const error = (() => {
      try {
        checkExpiryAtCreation(request('2026-11-20T00:00:00Z'), now);
        return undefined;
      } catch (e) {
        return e as any;
      }
    })();
    expect(error.issues).toEqual([
      {
        path: 'spec.expiresAt',
        rule: 'expires-in-the-past',
        message:
          '2026-11-20T00:00:00Z has passed already (it is 2026-11-24T10:00:00.000Z): give a date in the future, or none',
      },
    ]);
  });

  it('accepts only an RFC 3339 date-time with a zone', () => {
    for (const bad of [
      '2026-12-01',
      '2026-12-01T00:00:00',
      '2026-02-30T00:00:00Z',
      'next week',
      '2026-12-01 00:00:00Z',
    ]) {
      let issues: any[] = [];
      try {
        request(bad);
      } catch (e) {
        issues = (e as any).issues;
      }
      expect(issues).toEqual([
        expect.objectContaining({
          path: 'spec.expiresAt',
          rule: 'date-time',
        }),
      ]);
    }
    expect(request('2026-12-01T00:00:00.123456Z').spec.expiresAt).toBe(
      '2026-12-01T00:00:00.123456Z',
    );
  });
});
