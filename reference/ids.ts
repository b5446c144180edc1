import { createHash } from 'node:crypto';

/** Namespace of the reference's name-based UUIDs (RFC 9562 version 5). */
const namespace = Buffer.from('6f1c3a52-9d0e-4b7a-8f25-3c4e5d6a7b80'.replaceAll('-', ''), 'hex');

/** A stable UUID for a name, so that generated seed data and scaled copies are reproducible. */
export function deterministicUuid(name: string): string {
  const bytes = createHash('sha1').update(namespace).update(name, 'utf8').digest().subarray(0, 16);
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x50;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
