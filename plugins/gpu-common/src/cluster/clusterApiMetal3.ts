/**
 * The `clusterApi.metal3` profile key: which bare-metal hosts the GPU pools of
 * a Cluster API cluster on Metal3 (CAPM3) claim, and what they are
 * provisioned with. A host's class (its GPUs, CPUs, memory) is the catalog's
 * `metal3` machine named by the host's class label.
 */
import { z } from 'zod';
import { isQualifiedName } from '../request/formats';
import { nonEmpty } from './profileFields';

/**
 * The image Ironic writes to a GPU host (CAPM3 v1.13.2 `Metal3MachineTemplate`
 * v1beta2 `spec.template.spec.image`).
 *
 * @public
 */
export interface Metal3Image {
  /** Where Ironic downloads the image from (`url`). */
  url: string;
  /** Its md5, sha256 or sha512 sum, or a URL of one (`checksum`); required unless live-iso (CAPM3 webhook). */
  checksum: string;
  /** The checksum's algorithm (`checksumType`). */
  checksumType?: 'md5' | 'sha256' | 'sha512';
  /** The image's disk format (`diskFormat`). */
  diskFormat?: 'raw' | 'qcow2' | 'vdi' | 'vmdk' | 'live-iso';
}

/**
 * Metal3 machine defaults of the GPU pools (CAPM3 v1.13.2
 * `Metal3MachineTemplate` v1beta2 `spec.template.spec`; the host class comes
 * from the plan).
 *
 * @public
 */
export interface ClusterApiMetal3Settings {
  /**
   * The BareMetalHost label the platform sets to a host's class: a pool's
   * template selects hosts whose label is its catalog `metal3` machine's
   * name (`hostSelector.matchLabels`), e.g. `gpu.example.com/host-class`.
   */
  hostClassLabel: string;
  /** The image the hosts are provisioned with. */
  image: Metal3Image;
  /**
   * Metal3DataTemplate rendering the hosts' metadata and network data
   * (`dataTemplate.name`); its metadata carries the `providerid` a
   * `provider-id: metal3://{{ ds.meta_data.providerid }}` kubelet flag reads.
   */
  dataTemplateName?: string;
  /** Ironic's disk cleaning when a host is provisioned and released (`automatedCleaningMode`). */
  automatedCleaningMode?: 'metadata' | 'disabled';
}

const imageSchema = z.strictObject({
  // The CRD's `format: uri`, and CAPM3's webhook (url.ParseRequestURI).
  url: nonEmpty.max(512).regex(/^[A-Za-z][A-Za-z0-9+.-]*:\/\/\S+$/, {
    message:
      'must be an absolute URL such as "http://images.example/ubuntu.img"',
  }),
  checksum: nonEmpty.max(512),
  checksumType: z
    .enum(['md5', 'sha256', 'sha512'], {
      message: 'must be "md5", "sha256" or "sha512"',
    })
    .optional(),
  diskFormat: z.enum(['raw', 'qcow2', 'vdi', 'vmdk', 'live-iso']).optional(),
});

export const metal3SettingsSchema = z.strictObject({
  hostClassLabel: z.string().refine(isQualifiedName, {
    message:
      'must be a label key such as "gpu.example.com/host-class" (the BareMetalHosts carry it)',
    params: { rule: 'label-key' },
  }),
  image: imageSchema,
  dataTemplateName: nonEmpty.max(253).optional(),
  automatedCleaningMode: z
    .enum(['metadata', 'disabled'], {
      message: 'must be "metadata" or "disabled"',
    })
    .optional(),
});
