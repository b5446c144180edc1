/** What the status and body of an answer must be (tests/conditions/answers.ts). */
import { describe, it } from 'node:test';
import {
  acceptedOrRefused,
  createdOrError,
  grantsNone,
  hasStatus,
  leavesOut,
  mentionsNoneOf,
  noParticipantCreated,
  noServerError,
  noSuccess,
  notListed,
  okOrRefused,
  passesAuthentication,
  refusedAsInvalidUri,
  refusedOrTakenAlike,
  refusedUpdateNotApplied,
  refusedWith4xx,
  succeeds,
} from '../conditions/index.ts';
import { fails } from './condition-fails.ts';

const status = (value: number): { status: number; curl: string } => ({ status: value, curl: 'curl http://x' });

describe('conditions: answers', () => {
  it('refusedWith4xx: a 4xx, never a 2xx, 3xx or 5xx', () => {
    refusedWith4xx(status(400));
    refusedWith4xx(status(422));
    fails(() => refusedWith4xx(status(200)), /answered HTTP 200: the request must be refused with a 4xx\ncurl http:\/\/x/);
    fails(() => refusedWith4xx(status(500)), /answered HTTP 500/);
  });

  it('noServerError: anything but a 5xx', () => {
    noServerError(status(302));
    noServerError(status(404));
    fails(() => noServerError(status(503)), /answered HTTP 503: a 5xx is never an acceptable answer/);
  });

  it('refusedAsInvalidUri: any 4xx, or the connection closed; never a success or a 5xx', () => {
    refusedAsInvalidUri(status(400));
    refusedAsInvalidUri(status(404));
    refusedAsInvalidUri({ closed: 'connection reset by the target' });
    fails(() => refusedAsInvalidUri(status(200)), /answered HTTP 200: a path that is not a valid URI must not succeed/);
    fails(() => refusedAsInvalidUri(status(500)), /answered HTTP 500: a 5xx is never an acceptable answer/);
  });

  it('acceptedOrRefused: a 2xx or a 4xx', () => {
    acceptedOrRefused(status(201));
    acceptedOrRefused(status(400));
    fails(() => acceptedOrRefused(status(302)), /answered HTTP 302: expected a 2xx or a 4xx/);
  });

  it('okOrRefused: 200 or a 4xx', () => {
    okOrRefused(status(200));
    okOrRefused(status(400));
    fails(() => okOrRefused(status(204)), /answered HTTP 204: expected 200 or a 4xx/);
  });

  it('noSuccess and grantsNone: a limited request neither succeeds nor carries what a success grants', () => {
    noSuccess(status(400));
    fails(() => noSuccess(status(201)), /answered HTTP 201: the request must not succeed/);
    grantsNone({ status: 400, json: { statusCode: 400, message: 'too long' } }, ['access_token']);
    grantsNone({ status: 400, json: ['access_token'] }, ['access_token']);
    fails(() => grantsNone({ status: 302, json: { access_token: 'a.b.c' } }, ['access_token']), /answered HTTP 302 with access_token in the body/);
    // null or an empty string grants nothing: the interface does not show the body of a refusal.
    grantsNone({ status: 400, json: { publicKey: null, secretKey: '' } }, ['privateKey', 'secretKey', 'publicKey']);
    fails(
      () => grantsNone({ status: 400, json: { publicKey: 'pk', secretKey: 'a b c' } }, ['privateKey', 'secretKey', 'publicKey']),
      /with secretKey, publicKey in the body/,
    );
  });

  it('noParticipantCreated: a read-back of the named participant finds nothing', () => {
    noParticipantCreated({ status: 404, json: { statusCode: 404, message: 'no' } }, 'gen-1');
    noParticipantCreated({ status: 200, json: { id: 'someone-else' } }, 'gen-1');
    fails(
      () => noParticipantCreated({ status: 200, json: { id: 'gen-1' } }, 'gen-1'),
      /the write was refused, yet getParticipant "gen-1" now returns the participant/,
    );
  });

  it('hasStatus: exactly the status stated, or one of those stated', () => {
    hasStatus(status(403), 403);
    fails(() => hasStatus(status(200), 403), /answered HTTP 200: expected HTTP 403\ncurl http:\/\/x/);
    hasStatus(status(403), [200, 403]);
    fails(() => hasStatus(status(429), [200, 403]), /answered HTTP 429: expected HTTP 200 or 403/);
  });

  it('succeeds: any 2xx', () => {
    succeeds(status(200));
    succeeds(status(204));
    fails(() => succeeds(status(401)), /answered HTTP 401: expected a 2xx/);
  });

  it('passesAuthentication: anything but a 401', () => {
    passesAuthentication(status(500));
    passesAuthentication(status(403));
    fails(() => passesAuthentication(status(401)), /answered HTTP 401: expected the credentials sent to pass authentication/);
  });

  it('createdOrError: the documented 201 or an error status', () => {
    createdOrError(status(201));
    createdOrError(status(409));
    createdOrError(status(500));
    fails(() => createdOrError(status(200)), /answered HTTP 200: expected the documented 201 or an error status/);
  });

  it('leavesOut: none of the fields, whatever their value', () => {
    leavesOut({ status: 401, json: { statusCode: 401, message: 'no' } }, ['access_token']);
    leavesOut({ status: 401, json: ['access_token'] }, ['access_token']);
    fails(
      () => leavesOut({ status: 401, json: { access_token: null } }, ['access_token']),
      /answered HTTP 401 with access_token in the body: expected none of access_token/,
    );
  });

  it('mentionsNoneOf: no id as a JSON string anywhere in the body', () => {
    const body = (json: unknown): { status: number; text: string } => ({ status: 200, text: JSON.stringify(json) });
    mentionsNoneOf(body([{ id: 'g-2' }]), ['g-1']);
    mentionsNoneOf(body({ note: 'g-10' }), ['g-1']);
    fails(
      () => mentionsNoneOf(body({ data: [{ id: 'g-1' }, { id: 'g-3' }] }), ['g-1', 'g-2', 'g-3']),
      /HTTP 200 holding 2 of the 3 ids it must not return: \["g-1","g-3"\]/,
    );
  });

  it('refusedOrTakenAlike: a 401, or the answer of the documented credentials', () => {
    refusedOrTakenAlike(status(401), 200);
    refusedOrTakenAlike(status(200), 200);
    refusedOrTakenAlike(status(403), 200, [200, 403]);
    fails(() => refusedOrTakenAlike(status(403), 200), /answered HTTP 403; with the documented credentials it answers HTTP 200: expected a 401/);
    fails(() => refusedOrTakenAlike(status(500), 200, [200, 403]), /answered HTTP 500/);
  });

  it('refusedUpdateNotApplied: the read-back does not hold the name the refused update sent', () => {
    refusedUpdateNotApplied({ json: { id: 'p-1', name: 'Ada' } }, 'Ada refused 1');
    refusedUpdateNotApplied({ json: [{ name: 'Ada refused 1' }] }, 'Ada refused 1');
    fails(
      () => refusedUpdateNotApplied({ json: { id: 'p-1', name: 'Ada refused 1' }, curl: 'curl http://x' }, 'Ada refused 1'),
      /holds the name "Ada refused 1" the refused update sent: expected it unchanged\ncurl http:\/\/x/,
    );
  });

  it('notListed: the id is on none of the pages read', () => {
    notListed(['p-1', 'p-2'], 'p-3', 'group g-1');
    notListed([], 'p-3', 'group g-1');
    fails(() => notListed(['p-1', 'p-3'], 'p-3', 'group g-1'), /group g-1 still lists "p-3" among its 2 items: expected it absent/);
  });
});
