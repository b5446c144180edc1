/** The error-body conditions (tests/conditions/error-body.ts). */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { errorIsStatusName, isDocumentedErrorBody, isGeneralErrorBody, namesStatus, statusCodeIsStatus, statusNames } from '../conditions/index.ts';
import { fails } from './condition-fails.ts';
import type { Answer } from '../conditions/index.ts';

const answer = (status: number, json: unknown): Answer => ({ status, headers: { 'content-type': 'application/json' }, text: JSON.stringify(json) ?? '', json });

describe('conditions: error bodies', () => {
  it("statusNames: Node's names, RFC 9110's and RFC 2616's", () => {
    assert.deepEqual(statusNames(400), ['Bad Request']);
    assert.deepEqual(statusNames(422), ['Unprocessable Entity', 'Unprocessable Content']);
    assert.deepEqual(statusNames(413), ['Payload Too Large', 'Content Too Large', 'Request Entity Too Large']);
  });

  it('namesStatus: any name of the status, in any letter case; nothing else', () => {
    assert.equal(namesStatus(400, 'Bad Request'), true);
    assert.equal(namesStatus(400, 'bad request '), true);
    assert.equal(namesStatus(413, 'Request Entity Too Large'), true);
    assert.equal(namesStatus(400, 'Not Found'), false);
    assert.equal(namesStatus(400, null), false);
  });

  it('statusCodeIsStatus: statusCode, when present, is the status', () => {
    statusCodeIsStatus(answer(404, { message: 'no' }));
    statusCodeIsStatus(answer(404, { statusCode: 404 }));
    fails(() => statusCodeIsStatus(answer(400, { statusCode: 422 })), /statusCode 422 in the body of an HTTP 400/);
  });

  it('errorIsStatusName: error, when present, is the status name (letter case aside)', () => {
    errorIsStatusName(answer(401, { statusCode: 401, message: 'no' }));
    errorIsStatusName(answer(422, { error: 'Unprocessable Content' }));
    fails(() => errorIsStatusName(answer(400, { error: 'Oops' })), /error "Oops" is not the name of HTTP 400 \(Bad Request\)/);
    errorIsStatusName(answer(400, { error: 'bad request' }));
    fails(() => errorIsStatusName(answer(400, { error: 'Bad Requests' })), /not the name of HTTP 400/);
    fails(() => errorIsStatusName(answer(400, { error: null })), /error null/);
  });

  it('isGeneralErrorBody: statusCode, message and the status name; error may be absent from a 401', () => {
    isGeneralErrorBody(answer(404, { statusCode: 404, error: 'Not Found', message: 'no such group' }));
    isGeneralErrorBody(answer(401, { statusCode: 401, message: 'Unauthorized' }));
    fails(() => isGeneralErrorBody(answer(404, { statusCode: 404, message: 'no' })), /error is undefined, not the status name Not Found/);
    fails(
      () => isGeneralErrorBody(answer(400, { statusCode: '400', message: 7, error: 'Bad Request' })),
      /statusCode is "400", not the status 400; message is 7, not a string/,
    );
    fails(() => isGeneralErrorBody(answer(400, ['Bad Request'])), /the HTTP 400 body is not a JSON object/);
  });

  it('isDocumentedErrorBody: statusCode the HTTP status, and each field named a string', () => {
    isDocumentedErrorBody(answer(401, { statusCode: 401, message: 'Unauthorized' }), ['message']);
    isDocumentedErrorBody(answer(500, { statusCode: 500, message: 'ended', error: 'Internal Server Error', extra: 1 }), ['message', 'error']);
    fails(() => isDocumentedErrorBody(answer(401, ['Unauthorized']), ['message']), /the HTTP 401 body is not a JSON object/);
    fails(
      () => isDocumentedErrorBody(answer(403, { statusCode: '403', message: 'limit' }), ['error', 'message']),
      /not the documented error body: statusCode is "403", expected 403; error is undefined, expected a string/,
    );
  });
});
