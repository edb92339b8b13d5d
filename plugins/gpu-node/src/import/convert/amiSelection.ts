/**
 * `amiFamily` + AMI terms of a legacy node class → v1. v1 requires
 * `amiSelectorTerms`; an `alias` term (`<family>@<version>`) stands for
 * Karpenter's own AMI of a family. The rules are the v1 conversion webhook's
 * (`EC2NodeClass.ConvertFrom`, `pkg/apis/v1/ec2nodeclass_conversion.go`,
 * aws/karpenter-provider-aws v1.0.0) and the v1 upgrade guide
 * (`website/content/en/v1.0/upgrading/v1-migration.md`, "Ubuntu AMIFamily
 * Removed"):
 *
 * - AL2, AL2023, Bottlerocket, Windows2019, Windows2022 without terms →
 *   `alias: <family lowercased>@latest`, `amiFamily` left out;
 * - with terms → terms and `amiFamily` kept;
 * - Ubuntu (dropped in v1) with terms → `amiFamily: AL2` (identical UserData
 *   format) and, without block device mappings of its own, Ubuntu's default
 *   root volume; without terms there is nothing to select: not converted;
 * - Custom without terms cannot be expressed: not converted.
 *
 * An AWSNodeTemplate without `amiFamily` ran AL2 (`karpenter-convert`,
 * v0.32.10, "If the AMIFamily wasn't specified, then we know that it should
 * be AL2").
 */
import type { ImportFinding } from './findings';

const ALIASED_FAMILIES: Record<string, string> = {
  AL2: 'al2',
  AL2023: 'al2023',
  Bottlerocket: 'bottlerocket',
  Windows2019: 'windows2019',
  Windows2022: 'windows2022',
};

/** Ubuntu's default root volume, as the webhook injects it. */
const UBUNTU_ROOT_VOLUME = {
  deviceName: '/dev/sda1',
  rootVolume: true,
  ebs: { encrypted: true, volumeType: 'gp3', volumeSize: '20Gi' },
};

export type AmiSelection =
  | {
      amiFamily?: string;
      amiSelectorTerms: Record<string, unknown>[];
      /** Block device mappings to write when the class had none (Ubuntu). */
      defaultBlockDeviceMappings?: Record<string, unknown>[];
      findings: ImportFinding[];
    }
  | { refused: string };

export function amiSelection(
  family: string,
  terms: Record<string, unknown>[],
  hasBlockDeviceMappings: boolean,
  object: string,
): AmiSelection {
  const findings: ImportFinding[] = [];
  if (family in ALIASED_FAMILIES) {
    if (terms.length === 0) {
      return {
        amiSelectorTerms: [{ alias: `${ALIASED_FAMILIES[family]}@latest` }],
        findings,
      };
    }
    return { amiFamily: family, amiSelectorTerms: terms, findings };
  }
  if (family === 'Ubuntu') {
    if (terms.length === 0) {
      return {
        refused:
          'amiFamily Ubuntu was dropped in Karpenter v1 and the node class selects no AMI: add amiSelectorTerms naming your Ubuntu AMIs (v1 then bootstraps them as AL2) and import again',
      };
    }
    findings.push({
      kind: 'note',
      object,
      field: 'spec.amiFamily',
      value: 'Ubuntu',
      message:
        'amiFamily Ubuntu was dropped in Karpenter v1: the class keeps its AMI terms and bootstraps them as AL2 (same UserData format), as the v1 conversion webhook does',
    });
    return {
      amiFamily: 'AL2',
      amiSelectorTerms: terms,
      ...(hasBlockDeviceMappings
        ? {}
        : { defaultBlockDeviceMappings: [UBUNTU_ROOT_VOLUME] }),
      findings,
    };
  }
  if (family === 'Custom') {
    if (terms.length === 0) {
      return {
        refused:
          'amiFamily Custom needs amiSelectorTerms in Karpenter v1 and the node class selects no AMI: add them and import again',
      };
    }
    return { amiFamily: family, amiSelectorTerms: terms, findings };
  }
  return {
    refused: `amiFamily "${family}" is not one Karpenter v1 knows (AL2, AL2023, Bottlerocket, Windows2019, Windows2022, Custom)`,
  };
}
