import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { expect as baseExpect } from '@playwright/test';
import { checkExchange, contractMatchers, listOperations, openapiDocument, openapiSha256, validateSchema } from '../../fixtures/contract/index.ts';
import type { CheckResult, Exchange } from '../../fixtures/contract/index.ts';
import { ContractDocument, DEFAULT_OPENAPI_FILE } from '../../fixtures/contract/document.ts';
import { checkExamples } from '../../fixtures/contract/examples.ts';
import { ContractValidator } from '../../fixtures/contract/validator.ts';
import { checkJudging } from '../../fixtures/verdict/checks.ts';

const CURL = "curl -sS -X GET 'http://127.0.0.1:4010/groups/g-1' -H 'Authorization: Bearer [REDACTED]' -H 'apikey: [REDACTED]'";

function exchange(
  operationId: string,
  status: number,
  body: unknown,
  headers: Record<string, string> = { 'content-type': 'application/json; charset=utf-8' },
): Exchange {
  const text = body === undefined ? '' : JSON.stringify(body);
  return { operationId, request: { method: 'GET', url: 'http://127.0.0.1:4010/groups/g-1', headers: {} }, status, headers, text, json: body, curl: CURL };
}

const group = { id: 'g-1', name: 'Customer Success', createdAt: '2024-02-12T09:30:15.482Z' };
const participant = {
  id: 'p-1',
  name: 'Ana Souza',
  email: 'ana@example.com',
  avatar: 'https://avatars.example.com/a.png',
  createdAt: '2024-02-12T09:41:02.117Z',
};
const recording = {
  uuid: 'r-1',
  url: 'https://rec.example.com/r-1.mp4',
  roomId: 'room-1',
  status: 'processing',
  meetingId: 'm-1',
  createdAt: '2024-06-10T12:03:00.000Z',
};
const channel = { name: 'whiteboard-42', participantId: 'p-1', apiKey: 'k', startTime: 1718020800000, endTime: null };
const event = { name: 'message:whiteboard-42', timestamp: 1718020861234, participantId: 'p-1', connectionId: null, data: { name: 'n', payload: {} } };
const connected = { id: 'p-1', name: 'Ana Souza', connectionId: 'c-1', timestamp: 1718020805120, channel: 'room-1' };
const statsParticipant = {
  uuid: 'u',
  id: 1,
  userId: 'u-1',
  permission: 'member',
  name: 'Ana',
  createdAt: '2024-06-10T11:19:58.301Z',
  updatedAt: '2024-06-10T11:19:58.301Z',
  deletedAt: null,
};
const statsRecord = {
  uuid: 's-1',
  id: 1024,
  meetingId: 'm-1',
  groupId: 'g-1',
  groupName: 'CS',
  userId: 'u-1',
  meetingMinutes: 42,
  recordingMinutes: 12,
  price: 0.84,
  startedAt: '2024-06-10T11:20:00.000Z',
  endedAt: '2024-06-10T12:02:00.000Z',
  createdAt: '2024-06-10T11:20:00.512Z',
  participants: [statsParticipant],
};
const pagination = { page: 1, totalPages: 1, limit: 10, total: 1 };

function assertFails(result: CheckResult, check: CheckResult['check'], ...fragments: string[]): void {
  assert.equal(result.pass, false, `expected a failure, got:\n${result.message}`);
  assert.equal(result.check, check, result.message);
  for (const fragment of fragments) assert.ok(result.message.includes(fragment), `message lacks ${JSON.stringify(fragment)}:\n${result.message}`);
}

function assertPasses(result: CheckResult): void {
  assert.equal(result.pass, true, result.message);
  assert.equal(result.check, undefined);
}

describe('checkExchange rejects each kind of deviation', () => {
  it('a missing required field fails the body check with keyword required', () => {
    const { name: _name, ...withoutName } = group;
    assertFails(checkExchange(exchange('getGroup', 200, withoutName)), 'body', 'required', "'name'");
  });

  it('a wrong type fails with keyword type at the field pointer', () => {
    assertFails(
      checkExchange(exchange('getGroup', 200, { ...group, name: 42 })),
      'body',
      '/name: type',
      '[schema #/components/schemas/Group/properties/name/type]',
    );
  });

  it('a date-time without milliseconds fails with keyword pattern', () => {
    assertFails(
      checkExchange(exchange('getGroup', 200, { ...group, createdAt: '2024-02-12T09:30:15Z' })),
      'body',
      '/createdAt: pattern',
      '#/components/schemas/DateTimeMs/pattern',
    );
  });

  it('a date-time with an offset instead of Z fails with keyword pattern', () => {
    assertFails(checkExchange(exchange('getGroup', 200, { ...group, createdAt: '2024-02-12T09:30:15.482+02:00' })), 'body', '/createdAt: pattern');
  });

  it('an impossible date in the right shape fails with keyword format', () => {
    assertFails(checkExchange(exchange('getGroup', 200, { ...group, createdAt: '2024-02-30T09:30:15.482Z' })), 'body', '/createdAt: format');
  });

  it('epoch seconds where milliseconds are required fail with keyword minimum', () => {
    const body = { channel, events: [{ ...event, timestamp: 1718020861 }], presences: [] };
    assertFails(checkExchange(exchange('getChannelInfo', 200, body)), 'body', '/events/0/timestamp: minimum', '#/components/schemas/EpochMillis/minimum');
  });

  it('a fractional epoch value fails with keyword type', () => {
    const body = [{ ...connected, timestamp: 1718020805120.5 }];
    assertFails(checkExchange(exchange('listChannelParticipants', 200, body)), 'body', '/0/timestamp: type');
  });

  it('null where the interface does not allow it fails with keyword type', () => {
    assertFails(checkExchange(exchange('getParticipant', 200, { ...participant, email: null })), 'body', '/email: type');
  });

  it('null is accepted exactly where the interface states it', () => {
    assertPasses(
      checkExchange(
        exchange('getChannelInfo', 200, {
          channel: { ...channel, endTime: null },
          events: [{ ...event, connectionId: null }],
          presences: [{ ...connected, connectionId: null }],
        }),
      ),
    );
    assertPasses(checkExchange(exchange('getMeetingStats', 200, [{ ...statsRecord, participants: [{ ...statsParticipant, deletedAt: null }] }])));
    assertFails(checkExchange(exchange('getMeetingStats', 200, [{ ...statsRecord, endedAt: null }])), 'body', '/0/endedAt: type');
  });

  it('an undocumented status fails the documented-status check and lists the documented ones', () => {
    assertFails(
      checkExchange(exchange('getGroup', 503, { statusCode: 503, error: 'Service Unavailable', message: 'down' })),
      'documented-status',
      'Status 503',
      '200, 401, 4XX',
    );
  });

  it('an unlisted 4xx is covered by the 4XX range and must carry the general error body', () => {
    assertPasses(checkExchange(exchange('getGroup', 404, { statusCode: 404, error: 'Not Found', message: 'no such group' })));
    assertFails(checkExchange(exchange('getGroup', 404, { statusCode: 404, message: 'Not Found' })), 'body', "required property 'error'");
  });

  it('a status other than the one the test expects fails the status check first', () => {
    assertFails(
      checkExchange(exchange('getGroup', 401, { statusCode: 401, message: 'Unauthorized' }), undefined, { status: 200 }),
      'status',
      'Expected status 200, received 401',
    );
  });

  it('a non-JSON content type fails the content-type check', () => {
    assertFails(
      checkExchange(exchange('getGroup', 200, group, { 'content-type': 'text/html' })),
      'content-type',
      '"text/html" is not JSON',
      'application/json',
    );
    assertFails(checkExchange(exchange('getGroup', 200, group, {})), 'content-type', 'is missing');
  });

  it('a JSON content type with a body that is not JSON fails the body check', () => {
    const result = checkExchange({ ...exchange('getGroup', 200, undefined), text: '<html>oops</html>' });
    assertFails(result, 'body', 'not valid JSON', '<html>oops</html>');
  });

  it('an empty body where a JSON body is documented fails the body check', () => {
    assertFails(checkExchange(exchange('closeMeeting', 200, undefined)), 'body', 'The body is empty');
  });

  it('the closed meeting answer must be the empty object', () => {
    assertPasses(checkExchange(exchange('closeMeeting', 200, {})));
    assertFails(checkExchange(exchange('closeMeeting', 200, { closed: true })), 'body', 'maxProperties');
  });

  it('more events than the last 250 fail with keyword maxItems', () => {
    const events = Array.from({ length: 251 }, (_unused, index) => ({ ...event, timestamp: event.timestamp + index }));
    assertFails(checkExchange(exchange('getChannelInfo', 200, { channel, events, presences: [] })), 'body', '/events: maxItems');
  });
});

describe('checkExchange accepts every documented variant', () => {
  it('recordings as a bare array and as the pagination envelope', () => {
    assertPasses(checkExchange(exchange('listRecordings', 200, [recording])));
    assertPasses(checkExchange(exchange('listRecordings', 200, { pagination, data: [recording] })));
    assertFails(checkExchange(exchange('listRecordings', 200, { pagination, data: [{ ...recording, status: 'ready' }] })), 'body', '/data/0/status: enum');
  });

  it('channel info with presences, with participants or with both, but not with neither', () => {
    assertPasses(checkExchange(exchange('getChannelInfo', 200, { channel, events: [event], presences: [connected] })));
    assertPasses(checkExchange(exchange('getChannelInfo', 200, { channel, events: [event], participants: [connected] })));
    // A body carrying both names satisfies both documented forms.
    assertPasses(checkExchange(exchange('getChannelInfo', 200, { channel, events: [], participants: [connected], presences: [connected] })));
    assertFails(
      checkExchange(exchange('getChannelInfo', 200, { channel, events: [], participants: [], presences: ['not a participant'] })),
      'body',
      '/presences/0: type',
    );
    assertFails(checkExchange(exchange('getChannelInfo', 200, { channel, events: [] })), 'body', '(root): anyOf', 'channel-participants-list-name');
  });

  it('a 401 body with and without error, on every authenticated operation', () => {
    const authenticated = listOperations().filter((operation) => operation.security.length > 0);
    assert.equal(authenticated.length, 15);
    for (const { operationId } of authenticated) {
      assertPasses(checkExchange(exchange(operationId, 401, { statusCode: 401, message: 'Unauthorized' })));
      assertPasses(checkExchange(exchange(operationId, 401, { statusCode: 401, error: 'Unauthorized', message: 'The authenticated user is not a developer' })));
    }
    assertPasses(checkExchange(exchange('login', 401, { statusCode: 401, message: 'Invalid credentials' })));
    assertFails(checkExchange(exchange('getMeetingStats', 401, { statusCode: 401, error: 401, message: 'Unauthorized' })), 'body', '/error: type');
    assertFails(checkExchange(exchange('getMeetingStats', 401, { statusCode: '401', message: 'Unauthorized' })), 'body', '/statusCode: type');
  });

  it('meeting statistics as summary, as an array of records and as the envelope', () => {
    assertPasses(checkExchange(exchange('getMeetingStats', 200, { totalMeetingMinutes: 1520.5, totalRecordingMinutes: 310, totalMeetings: 87 })));
    assertPasses(checkExchange(exchange('getMeetingStats', 200, [statsRecord])));
    assertPasses(checkExchange(exchange('getMeetingStats', 200, { data: [statsRecord], pagination })));
    assertFails(checkExchange(exchange('getMeetingStats', 200, { data: [statsRecord] })), 'body', '(root): anyOf');
  });

  it('unknown extra fields, including the channel id that the field table does not list', () => {
    assertPasses(checkExchange(exchange('getGroup', 200, { ...group, colour: 'blue', members: 3 })));
    assertPasses(
      checkExchange(exchange('getChannelInfo', 200, { channel: { ...channel, id: '6650f1c2', region: 'eu' }, events: [], presences: [], cursor: 'x' })),
    );
  });

  it('any body, or none, for the participant upsert whose response body is not shown', () => {
    assertPasses(checkExchange(exchange('upsertParticipant', 201, undefined, {})));
    assertPasses(checkExchange(exchange('upsertParticipant', 201, participant)));
    assertPasses(checkExchange({ ...exchange('upsertParticipant', 201, undefined, { 'content-type': 'text/plain' }), text: 'Created' }));
  });

  it('an invalid request on transcription statistics with any 4XX status and the general error body', () => {
    assertPasses(
      checkExchange(
        exchange('getTranscriptionStats', 400, { statusCode: 400, error: 'Bad Request', message: 'environment must be one of development, production' }),
      ),
    );
    assertPasses(checkExchange(exchange('getTranscriptionStats', 403, { statusCode: 403, error: 'Forbidden', message: 'Usage limit reached' })));
    assertFails(checkExchange(exchange('getTranscriptionStats', 403, { statusCode: 403, message: 'Usage limit reached' })), 'body', "'error'");
    assertFails(checkExchange(exchange('getTranscriptionStats', 500, { statusCode: 500, error: 'Internal Server Error', message: 'x' })), 'documented-status');
  });

  it('a content type with a charset or a +json suffix', () => {
    assertPasses(checkExchange(exchange('getGroup', 200, group, { 'content-type': 'application/json;charset=UTF-8' })));
    assertPasses(checkExchange(exchange('getGroup', 200, group, { 'content-type': 'application/vnd.api+json' })));
  });
});

describe('failure messages', () => {
  it('name the check, the received status, the pointer, the keyword, the schema location and end with the curl line', () => {
    const result = checkExchange(exchange('getGroup', 200, { ...group, createdAt: '2024-02-12T09:30:15Z' }));
    assertFails(
      result,
      'body',
      'check "body" failed',
      'Received: status 200, content-type application/json; charset=utf-8',
      'matching #/components/schemas/Group',
      '/createdAt: pattern',
      '[schema #/components/schemas/DateTimeMs/pattern]',
      'received "2024-02-12T09:30:15Z"',
    );
    assert.ok(result.message.endsWith(`Reproduce:\n  ${CURL}`), result.message);
  });

  it('truncate the body excerpt and redact credentials inside it', () => {
    const token = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1LTEifQ.c2lnbmF0dXJl';
    const result = checkExchange(exchange('login', 200, { access_token: token, name: 7, padding: 'x'.repeat(2000) }));
    assertFails(result, 'body', '/name: type', 'characters in all');
    assert.ok(!result.message.includes(token), result.message);
    const badToken = checkExchange(exchange('login', 200, { access_token: 'not a jwt', name: 'Ana' }));
    assertFails(badToken, 'body', '/access_token: pattern', 'received "[REDACTED]"');
    assert.ok(!badToken.message.includes('received "not a jwt"'), badToken.message);
  });
});

describe('contractMatchers.toMatchOperation with Playwright expect', () => {
  const expect = baseExpect.extend(contractMatchers(checkJudging));

  it('passes on a matching exchange and fails with the check message otherwise', () => {
    expect(exchange('getGroup', 200, group)).toMatchOperation();
    expect(exchange('getGroup', 200, group)).toMatchOperation('getGroup', { status: 200 });
    assert.throws(() => expect(exchange('getGroup', 200, { ...group, id: 1 })).toMatchOperation(), /\/id: type[\s\S]*Reproduce:/);
  });

  it('supports .not', () => {
    expect(exchange('getGroup', 404, {})).not.toMatchOperation();
    assert.throws(() => expect(exchange('getGroup', 200, group)).not.toMatchOperation(), /not to match the operation, but every check passed/);
  });

  it('refuses a value that is not an exchange, even under .not', () => {
    assert.throws(() => expect({ status: 200 }).not.toMatchOperation('getGroup'), /expects the Exchange/);
  });

  it('throws on an unknown operationId instead of passing', () => {
    assert.throws(() => checkExchange(exchange('getGroups', 200, group)), /Unknown operationId "getGroups"/);
  });
});

describe('validateSchema', () => {
  it('takes a component name or a pointer and reports errors with pointer and keyword', () => {
    assert.deepEqual(validateSchema('Group', group), { valid: true, errors: [] });
    assert.equal(validateSchema('#/components/schemas/Participant', participant).valid, true);
    assert.equal(validateSchema('/paths/~1groups/get/responses/200/content/application~1json/schema', { pagination, data: [group] }).valid, true);
    const result = validateSchema('RealtimeEvent', { ...event, timestamp: 1718020861 });
    assert.equal(result.valid, false);
    assert.deepEqual(result.errors, ['/timestamp: minimum must be >= 1000000000000 [schema #/components/schemas/EpochMillis/minimum]; received 1718020861']);
  });

  it('resolves pointers through path templates with braces', () => {
    assert.equal(validateSchema('#/paths/~1groups~1{id}/get/responses/200/content/application~1json/schema', group).valid, true);
  });

  it('throws on a schema the document does not have', () => {
    assert.throws(() => validateSchema('Meeting', {}), /No schema at #\/components\/schemas\/Meeting/);
  });
});

describe('listOperations', () => {
  const operations = listOperations();
  const byId = new Map(operations.map((operation) => [operation.operationId, operation]));

  it('lists the 16 operations of docs/architecture.md with their method, path and server', () => {
    const expected: [string, string, string, 'main' | 'realtime'][] = [
      ['login', 'POST', '/login', 'main'],
      ['listGroups', 'GET', '/groups', 'main'],
      ['getGroup', 'GET', '/groups/{id}', 'main'],
      ['listGroupParticipants', 'GET', '/groups/participants/{groupId}', 'main'],
      ['upsertParticipant', 'POST', '/participants', 'main'],
      ['getParticipant', 'GET', '/participants/{id}', 'main'],
      ['archiveParticipant', 'PUT', '/participants/{id}/archive', 'main'],
      ['listRecordings', 'GET', '/recording', 'main'],
      ['getTranscriptionStats', 'GET', '/transcript/stats', 'main'],
      ['createSecurityKey', 'POST', '/security', 'main'],
      ['getMeetingsSummary', 'GET', '/meetings/summary', 'main'],
      ['getMeetingStats', 'GET', '/meetingstats', 'main'],
      ['closeMeeting', 'GET', '/meeting/close/{meetingId}', 'main'],
      ['getChannelInfo', 'GET', '/realtime/{channel}', 'realtime'],
      ['listChannelParticipants', 'GET', '/realtime/participants/{channel_name}', 'realtime'],
      ['listRoomChannelParticipants', 'GET', '/realtime/participants/{room}/{channel}', 'main'],
    ];
    assert.deepEqual(operations.map((operation) => [operation.operationId, operation.method, operation.path, operation.server]).sort(), expected.sort());
  });

  it('gives the credentials of each operation as in docs/architecture.md', () => {
    const security = Object.fromEntries(operations.map((operation) => [operation.operationId, operation.security]));
    assert.deepEqual(security, {
      login: [],
      listGroups: [['bearerAuth', 'apiKeyAuth']],
      getGroup: [['bearerAuth', 'apiKeyAuth']],
      listGroupParticipants: [['bearerAuth', 'apiKeyAuth']],
      upsertParticipant: [['bearerAuth', 'apiKeyAuth']],
      getParticipant: [['bearerAuth', 'apiKeyAuth']],
      archiveParticipant: [['bearerAuth', 'apiKeyAuth']],
      listRecordings: [['bearerAuth', 'apiKeyAuth']],
      getTranscriptionStats: [['bearerAuth']],
      createSecurityKey: [['bearerAuth']],
      getMeetingsSummary: [['apiKeyAuth']],
      getMeetingStats: [['bearerAuth']],
      closeMeeting: [['bearerAuth']],
      getChannelInfo: [['clientId', 'clientSecret']],
      listChannelParticipants: [['clientId', 'clientSecret']],
      listRoomChannelParticipants: [['apiKeyAuth']],
    });
  });

  it('gives parameters with defaults, request bodies and response schemas with refs inlined', () => {
    const stats = byId.get('getMeetingStats');
    assert.ok(stats !== undefined);
    assert.deepEqual(
      stats.parameters.find((parameter) => parameter.name === 'environment'),
      {
        name: 'environment',
        in: 'query',
        required: false,
        schema: { type: 'string', enum: ['development', 'production'], default: 'production' },
      },
    );
    assert.deepEqual(
      byId.get('listGroups')?.parameters.map((parameter) => [parameter.name, (parameter.schema as { default?: unknown }).default]),
      [
        ['skip', 0],
        ['take', 10],
      ],
    );
    assert.deepEqual(byId.get('closeMeeting')?.requestBody?.required, true);
    assert.deepEqual((byId.get('closeMeeting')?.requestBody?.schema as { required?: unknown }).required, ['apiKey']);
    assert.deepEqual(byId.get('upsertParticipant')?.responses, {
      '201': {},
      '401': { schemaRef: '#/components/schemas/UnauthorizedErrorBody' },
      '4XX': { schemaRef: '#/components/schemas/ErrorBody' },
    });
    assert.equal(byId.get('listRecordings')?.responses['200']?.schemaRef, '#/components/schemas/RecordingList');
  });
});

describe('the document', () => {
  it('is OpenAPI 3.1 with the SHA-256 of the file bytes', () => {
    assert.equal(openapiDocument().openapi, '3.1.0');
    assert.equal(openapiSha256(), createHash('sha256').update(readFileSync(DEFAULT_OPENAPI_FILE)).digest('hex'));
    assert.ok(Object.isFrozen(openapiDocument().paths));
  });

  it('has only examples that match their own schemas', () => {
    const { checked, failures } = checkExamples(new ContractValidator(ContractDocument.fromFile(DEFAULT_OPENAPI_FILE)));
    assert.ok(checked >= 50, `only ${checked} examples found`);
    assert.deepEqual(failures, []);
  });

  it('the examples check catches a wrong example in a schema, a media type and a parameter', () => {
    const text = readFileSync(DEFAULT_OPENAPI_FILE, 'utf8')
      .replace("name: Customer Success\n          createdAt: '2024-02-12T09:30:15.482Z'", "name: Customer Success\n          createdAt: '2024-02-12T09:30:15Z'")
      .replace('totalMeetings: 87\n    MeetingStatsRecordList:', "totalMeetings: '87'\n    MeetingStatsRecordList:")
      .replace('example: room-onboarding-42', 'example: 42');
    const { failures } = checkExamples(new ContractValidator(ContractDocument.fromText(text, 'modified copy')));
    // The summary example is used by two operations, so it is checked (and fails) once for each.
    assert.deepEqual(failures.map((failure) => failure.example.location).sort(), [
      '#/components/examples/MeetingStatsSummary/value',
      '#/components/examples/MeetingStatsSummary/value',
      '#/components/schemas/Group/examples/0',
      '#/paths/~1recording/get/parameters/0/example',
    ]);
  });
});
