/**
 * Applicability per requirement, from the calls it concerns (tests/support/applicability.ts): one
 * case of each shape the audit of the tests found (docs/level-audit.md, "Applicability"), with the
 * operations the catalogue gives each requirement.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { requirement } from '../../fixtures/verdict/requirements.ts';
import { applicability, concernedAnswers } from '../../tests/support/applicability.ts';
import type { Answered } from '../../tests/support/applicability.ts';
import { governing } from '../../tests/support/auth.ts';

const answer = (operationId: string, status: number, call = ''): Answered & { call: string } => ({ operationId, status, call });

describe('applicability', () => {
  it('GRP-05: an unknown group answered 400 by getGroup and 200 by listGroupParticipants does not apply, decided from getGroup alone', () => {
    // The case: the old decision, from every status of the test, saw a 200 and kept GRP-05
    // from being not applicable, while no check of it could run: INCOMPLETE on a conforming target.
    const answers = [answer('getGroup', 400), answer('listGroupParticipants', 200)];
    const decided = applicability(requirement('GRP-05'), answers);
    assert.deepEqual(decided.applying, []);
    assert.deepEqual(
      decided.concerned.map((each) => each.operationId),
      ['getGroup'],
    );
    assert.equal(decided.notApplicable, 'getGroup 400, not 200 (GRP-05 states what a 200 holds)');
    // The other way round it applies, to getGroup's 200 only.
    const applies = applicability(requirement('GRP-05'), [answer('getGroup', 200), answer('listGroupParticipants', 404)]);
    assert.deepEqual(
      applies.applying.map((each) => each.operationId),
      ['getGroup'],
    );
    assert.equal(applies.notApplicable, undefined);
  });

  it('several requirements over several operations (an unknown channel and room): each is decided from its own operations', () => {
    const answers = [answer('getChannelInfo', 404), answer('listChannelParticipants', 200), answer('listRoomChannelParticipants', 200)];
    assert.equal(applicability(requirement('RT-03'), answers).notApplicable, 'getChannelInfo 404, not 200 (RT-03 states what a 200 holds)');
    assert.deepEqual(
      applicability(requirement('RT-11'), answers).applying.map((each) => each.operationId),
      ['listRoomChannelParticipants'],
    );
  });

  it('a setup call of an operation the requirement governs counts (PART-11: the archive answered 200, the read 404): it applies', () => {
    // The old decision looked at the read alone and called PART-11 not applicable while a 200 it governs was there to check.
    const answers = [answer('archiveParticipant', 200), answer('upsertParticipant', 201), answer('getParticipant', 404)];
    const decided = applicability(requirement('PART-11'), answers);
    assert.deepEqual(
      decided.applying.map((each) => each.operationId),
      ['archiveParticipant'],
    );
    assert.equal(applicability(requirement('PART-11'), [answer('archiveParticipant', 404), answer('getParticipant', 404)]).notApplicable !== undefined, true);
  });

  it('other requests of the same operation decide nothing: only the calls the statement names (TRS-06, the read without environment)', () => {
    const answers = [
      answer('getTranscriptionStats', 400, 'no environment'),
      answer('getTranscriptionStats', 200, 'development'),
      answer('getTranscriptionStats', 200, 'production'),
    ];
    const named = (each: (typeof answers)[number]): boolean => each.call === 'no environment';
    assert.equal(applicability(requirement('TRS-06'), answers, { named }).notApplicable, 'getTranscriptionStats 400, not 200 (TRS-06 states what a 200 holds)');
    // Without naming the call, the reads by environment would make it apply: the shape the rule forbids.
    assert.equal(applicability(requirement('TRS-06'), answers).notApplicable, undefined);
  });

  it('a page past the end refused twice (PAG-14): not applicable, whatever the read of the total answered', () => {
    const answers = [answer('listGroups', 400, 'skip=25'), answer('listGroups', 400, 'skip=32')];
    assert.equal(applicability(requirement('PAG-14'), answers).notApplicable, 'listGroups 400 ×2, not 200 (PAG-14 states what a 200 holds)');
    assert.deepEqual(
      applicability(requirement('PAG-14'), [...answers, answer('listGroups', 200, 'skip=0')], { named: (each) => each.call !== 'skip=0' }).applying,
      [],
    );
  });

  it('refuses to decide from answers none of which the requirement concerns: that is a test that asked it nothing', () => {
    assert.throws(
      () => applicability(requirement('GRP-05'), [answer('listGroupParticipants', 200)]),
      /none of the answers \(listGroupParticipants 200\) is of a call GRP-05 concerns \(getGroup\)/,
    );
    assert.deepEqual(concernedAnswers(['getGroup'], [answer('listGroups', 200), answer('getGroup', 500)]), [answer('getGroup', 500)]);
  });

  it('the auth matrix binds each operation of a case to the citation that governs it, and refuses a case where none does', () => {
    // "every bearer operation answers 401 to the API key sent as the bearer token" reached closeMeeting,
    // which AUTH-20 did not list: its check was filed under a requirement that did not govern the call.
    assert.equal(governing(['AUTH-03', 'AUTH-06', 'AUTH-09'], 'closeMeeting', 'no Authorization header'), 'AUTH-09');
    assert.equal(governing(['AUTH-20'], 'closeMeeting', 'the API key as bearer token'), 'AUTH-20');
    assert.throws(() => governing(['AUTH-13'], 'listGroups', 'no client_id'), /no client_id: none of AUTH-13 governs listGroups/);
  });
});
