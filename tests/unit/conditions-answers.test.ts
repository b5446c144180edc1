/** What the status and body of an answer must be (tests/conditions/answers.ts). */
import { describe, it } from 'node:test';
import {
  acceptedOrRefused,
  grantsNone,
  noParticipantCreated,
  noServerError,
  noSuccess,
  okOrRefused,
  refusedAsInvalidUri,
  refusedWith4xx,
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
});
