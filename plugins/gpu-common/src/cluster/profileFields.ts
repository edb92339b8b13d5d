/**
 * Field formats the Cluster API settings objects share, so each rule and its
 * wording is written once.
 */
import { z } from 'zod';
import { isDns1123Label } from '../request/formats';

export const dns1123Label = z.string().refine(isDns1123Label, {
  message: 'must be a DNS-1123 label (lowercase letters, digits, "-", <= 63)',
  params: { rule: 'dns1123-label' },
});

export const nonEmpty = z.string().min(1, { message: 'must not be empty' });
