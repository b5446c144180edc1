/** What a certificate says of its run, for the unit tests that render one: a run against the made-up target acme. */
import { CERTIFICATE_FORMAT, type CertificationReport } from '../../fixtures/reporters/certificate.ts';
import { describeRun } from '../../fixtures/reporters/run-info.ts';

export function acmeRun(runStatus: CertificationReport['runStatus']) {
  return {
    format: CERTIFICATE_FORMAT,
    ...describeRun(),
    target: { name: 'acme', baseUrl: 'https://api.acme.test', realtimeUrl: 'https://api.acme.test/v2' },
    startTime: '2025-01-01T00:00:00.000Z',
    durationMs: 0,
    runStatus,
  };
}
