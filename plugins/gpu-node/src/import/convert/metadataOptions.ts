/**
 * Karpenter v1 lowered the default IMDS hop limit (`httpPutResponseHopLimit`)
 * from 2 to 1 (`website/content/en/v1.0/upgrading/v1-migration.md`, "New
 * MetadataOptions Defaults"; the v1beta1 CRD of v0.37.7 defaults it to 2):
 * pods without host networking then lose the instance metadata service. A
 * converted node class keeps the old limit, written out, and the report says so.
 */
import { isPlainObject, type PlainObject } from '../../repo/yamlObjects';
import { copy } from './fieldReader';
import type { ImportFinding } from './findings';

const LEGACY_HOP_LIMIT = 2;

export function metadataOptionsKeepingHopLimit(
  value: unknown,
  object: string,
): { value: PlainObject; findings: ImportFinding[] } {
  const options: PlainObject = isPlainObject(value) ? copy(value) : {};
  if (options.httpPutResponseHopLimit !== undefined) {
    return { value: options, findings: [] };
  }
  const written: PlainObject = isPlainObject(value)
    ? { ...options, httpPutResponseHopLimit: LEGACY_HOP_LIMIT }
    : {
        httpEndpoint: 'enabled',
        httpProtocolIPv6: 'disabled',
        httpPutResponseHopLimit: LEGACY_HOP_LIMIT,
        httpTokens: 'required',
      };
  return {
    value: written,
    findings: [
      {
        kind: 'default-kept',
        object,
        field: 'spec.metadataOptions.httpPutResponseHopLimit',
        value: LEGACY_HOP_LIMIT,
        message:
          'Karpenter v1 lowered the default IMDS hop limit from 2 to 1, which cuts pods off the instance metadata; the old limit 2 is written out (set 1 when no pod needs IMDS)',
      },
    ],
  };
}
