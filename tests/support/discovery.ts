/**
 * The requirement that states that each read discovery makes answers its list: a discovery read that
 * fails (fixtures/data/discovery-reads.ts) or a read a test depends on without judging it (reads.ts) is a failure of
 * that requirement, recorded in the test that made it. playwright.config.ts hands the table to the
 * harness (its `discoveryRequirements` option), which names no requirement of its own.
 */
export const DISCOVERY_REQUIREMENTS: Readonly<Record<string, string>> = {
  listGroups: 'GRP-01',
  getGroup: 'GRP-03',
  listGroupParticipants: 'GRP-04',
  listRecordings: 'REC-01',
  getMeetingStats: 'MST-03',
  getTranscriptionStats: 'TRS-01',
};
