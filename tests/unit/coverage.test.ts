import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { redactDescription, splitStructure } from '../../fixtures/verdict/annotation-structure.ts';
import { exchangesOf, recordAttachment } from '../../fixtures/verdict/records.ts';
import type { ExchangeTally } from '../../fixtures/verdict/annotation-structure.ts';
import { documentedKey } from '../../fixtures/contract/document.ts';
import { interfaceCoverage, recordExchange, writeExchangeRecords } from '../../fixtures/verdict/coverage.ts';
import type { DeclaredOperation } from '../../fixtures/verdict/coverage.ts';
import { coverageLine, coverageMarkdown, documentOperations, neverProvoked } from '../../fixtures/reporters/coverage.ts';

const LOGIN: DeclaredOperation = { operationId: 'login', server: 'main', method: 'POST', path: '/login', statuses: ['200', '401', '4XX'] };
const CLOSE: DeclaredOperation = {
  operationId: 'closeMeeting',
  server: 'main',
  method: 'GET',
  path: '/meeting/close/{meetingId}',
  statuses: ['200', '401', '500', '4XX'],
};
const CHANNEL: DeclaredOperation = {
  operationId: 'getChannelInfo',
  server: 'realtime',
  method: 'GET',
  path: '/realtime/{channel}',
  statuses: ['200', '401', '4XX'],
};

const tally = (operationId: string | null, status: number | null, count = 1): ExchangeTally => ({ operationId, status, count });

describe('coverage of the interface surface', () => {
  const coverage = interfaceCoverage(
    [LOGIN, CLOSE, CHANNEL],
    [
      tally('login', 200, 3),
      tally('login', 400, 2),
      tally('login', 404),
      tally('login', 201),
      tally('login', null),
      tally('closeMeeting', 200),
      tally('closeMeeting', 503, 2),
      tally('getChannelInfo', 401),
      tally('login', 200, 2),
      tally(null, 404, 2),
      tally('notAnOperation', 200),
      tally(null, null),
    ],
  );
  const [login, close, channel] = coverage.operations;

  it('counts each declared status, a range by the statuses no exact code declares', () => {
    assert.deepEqual(login?.declared, [
      { status: '200', exchanges: 5, received: [{ status: 200, exchanges: 5 }] },
      { status: '401', exchanges: 0, received: [] },
      {
        status: '4XX',
        exchanges: 3,
        received: [
          { status: 400, exchanges: 2 },
          { status: 404, exchanges: 1 },
        ],
      },
    ]);
    assert.deepEqual(
      channel?.declared.map((entry) => [entry.status, entry.exchanges]),
      [
        ['200', 0],
        ['401', 1],
        ['4XX', 0],
      ],
    );
  });

  it('lists a declared status that no exchange received as never provoked', () => {
    assert.deepEqual(login?.neverProvoked, ['401']);
    assert.deepEqual(close?.neverProvoked, ['401', '500', '4XX']);
    assert.deepEqual(channel?.neverProvoked, ['200', '4XX']);
    assert.equal(coverage.declaredStatuses, 10);
    assert.equal(coverage.neverProvoked, 6);
    assert.deepEqual(neverProvoked(coverage), [
      'login 401',
      'closeMeeting 401',
      'closeMeeting 500',
      'closeMeeting 4XX',
      'getChannelInfo 200',
      'getChannelInfo 4XX',
    ]);
  });

  it('lists a received status that the document does not declare for the operation, per operation', () => {
    assert.deepEqual(login?.undeclared, [{ status: 201, exchanges: 1 }]);
    assert.deepEqual(close?.undeclared, [{ status: 503, exchanges: 2 }]);
    assert.deepEqual(channel?.undeclared, []);
  });

  it('counts requests without an answer, and exchanges of no known operation apart', () => {
    assert.equal(login?.unanswered, 1);
    assert.equal(login?.exchanges, 5 + 3 + 1 + 1);
    assert.deepEqual(coverage.unidentified, {
      exchanges: 4,
      statuses: [
        { status: 200, exchanges: 1 },
        { status: 404, exchanges: 2 },
      ],
      unanswered: 1,
    });
    assert.equal(coverage.exchanges, 10 + 3 + 1 + 4);
  });

  it('renders every operation, and what was never provoked', () => {
    const markdown = coverageMarkdown(coverage).join('\n');
    assert.match(markdown, /\| login \(POST \/login\) \| main \| 200 ×5, 401 ×0, 4XX ×3 \(400 ×2, 404 ×1\) \| \*\*401\*\* \| 201 ×1 \| 1 \|/);
    assert.match(markdown, /\| getChannelInfo \(GET \/realtime\/\{channel\}\) \| realtime \|/);
    assert.match(
      markdown,
      /^\*\*4 of 10 declared statuses received, 6 never provoked\*\* \(login 401, closeMeeting 401, .*\); 2 undeclared status\(es\) received; 18 exchanges, 2 without a usable answer, 4 outside/,
    );
    assert.match(coverageLine(coverage), /^coverage: 4 of 10 declared statuses received over 18 exchanges; never provoked: login 401, closeMeeting 401, /);
  });

  it('takes the statuses of the 16 operations of both servers from spec/openapi.yaml', () => {
    const operations = documentOperations();
    assert.equal(operations.length, 16);
    assert.deepEqual(
      operations.filter((operation) => operation.server === 'realtime').map((operation) => operation.operationId),
      ['getChannelInfo', 'listChannelParticipants'],
    );
    assert.deepEqual(operations.find((operation) => operation.operationId === 'closeMeeting')?.statuses, ['200', '401', '500', '4XX']);
    const empty = interfaceCoverage(operations, []);
    assert.equal(empty.neverProvoked, empty.declaredStatuses);
  });

  it('finds the documented key of a status as the contract matcher does: the code, its range, then default', () => {
    assert.equal(documentedKey(['200', '4XX'], 200), '200');
    assert.equal(documentedKey(['200', '4XX'], 404), '4XX');
    assert.equal(documentedKey(['200', '4xx'], 404), '4xx');
    assert.equal(documentedKey(['200', 'default'], 503), 'default');
    assert.equal(documentedKey(['200', '4XX'], 503), undefined);
  });
});

describe('the exchanges of a test', () => {
  it('are counted by the client in one annotation per test, and recorded when the test ends', () => {
    const annotations: { type: string; description?: string }[] = [{ type: 'requirement', description: 'GRP-01' }];
    recordExchange(annotations, 'listGroups', 200);
    recordExchange(annotations, 'listGroups', 200);
    recordExchange(annotations, 'getGroup', 404);
    recordExchange(annotations, null, 404);
    recordExchange(annotations, 'login', null);
    assert.equal(annotations.length, 2);
    assert.deepEqual(annotations[1], { type: 'exchanges', description: 'listGroups 200 ×2; getGroup 404; ? 404; login no answer' });
    const info = { annotations, attachments: [] };
    writeExchangeRecords(info);
    assert.equal(annotations.length, 2, 'the line is the one the client keeps');
    assert.deepEqual(exchangesOf(info.attachments), [tally('listGroups', 200, 2), tally('getGroup', 404), tally(null, 404), tally('login', null)]);
  });

  it("add up when a test carries another's (the recording watch beside the test's own); a line alone counts nothing", () => {
    const watch: { type: string; description?: string }[] = [];
    recordExchange(watch, 'listRecordings', 200);
    recordExchange(watch, 'login', 200);
    const annotations: { type: string; description?: string }[] = [{ type: 'exchanges', description: 'listRecordings 200 ×9' }];
    recordExchange(annotations, 'listRecordings', 200);
    annotations.push(...watch);
    const info = { annotations, attachments: [] };
    writeExchangeRecords(info);
    assert.deepEqual(exchangesOf(info.attachments), [tally('listRecordings', 200, 2), tally('login', 200)]);
    assert.deepEqual(exchangesOf([recordAttachment({ kind: 'exchanges', tallies: [tally('login', 200, 3)] }), ...info.attachments]), [
      tally('login', 200, 4),
      tally('listRecordings', 200, 2),
    ]);
  });

  it('is structure whole: redaction never reaches it', () => {
    const description = 'listGroups 200 ×2; ? 404; login no answer';
    assert.deepEqual(splitStructure('exchanges', description), { structure: description, evidence: '' });
    assert.equal(
      redactDescription('exchanges', description, () => '[REDACTED]'),
      description,
    );
    assert.equal(splitStructure('exchanges', 'listGroups 200 and a token').structure, '');
  });
});
