import assert from 'node:assert/strict';
import { appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { REFERENCE_TARGET_FILE } from '../../fixtures/config/plan.ts';
import { loadTargetConfig } from '../../fixtures/config/profile.ts';
import { CreatedLedger, describeSweep, ledgerFiles, outstanding, sweepLedger, targetArchiver } from '../../fixtures/data/ledger.ts';
import { NameSequence, ParticipantFactory } from '../../fixtures/data/participants.ts';
import type { ApiClient } from '../../fixtures/transport/client.ts';
import type { Exchange } from '../../fixtures/contract/index.ts';
import { targetSender } from '../../fixtures/transport/network.ts';

const root = mkdtempSync(join(tmpdir(), 'ledger-'));
after(() => rmSync(root, { recursive: true, force: true }));
let dirs = 0;
const freshDir = (): string => join(root, `d${(dirs += 1)}`);
const TARGET = 'http://127.0.0.1:4010';
const readText = (file: string): string => readFileSync(file, 'utf8');
/** The ledger of worker 0 of run1 against TARGET, in a folder of its own. */
function freshLedger(): { dir: string; ledger: CreatedLedger } {
  const dir = freshDir();
  return { dir, ledger: new CreatedLedger('run1', 0, TARGET, dir) };
}

describe('the ledger of created data', () => {
  it('lists what was created and not archived, across the workers of one run only', () => {
    const dir = freshDir();
    const first = new CreatedLedger('run1', 0, TARGET, dir);
    const second = new CreatedLedger('run1', 1, TARGET, dir);
    new CreatedLedger('run2', 0, TARGET, dir).created('other-run');
    first.created('a');
    first.created('b');
    second.created('c');
    first.archived('a');
    assert.deepEqual(
      ledgerFiles('run1', dir)
        .map((file) => file.slice(dir.length + 1))
        .sort(),
      ['run1-0.jsonl', 'run1-1.jsonl'],
    );
    assert.deepEqual(
      outstanding(ledgerFiles('run1', dir).sort().map(readText)).map((leftover) => leftover.id),
      ['b', 'c'],
    );
  });

  it('tells apart the same ID created on two targets', () => {
    const { dir, ledger } = freshLedger();
    const other = new CreatedLedger('run1', 1, 'http://127.0.0.1:4011', dir);
    ledger.created('a');
    other.created('a');
    ledger.archived('a');
    assert.deepEqual(outstanding(ledgerFiles('run1', dir).map(readText)), [{ target: 'http://127.0.0.1:4011', id: 'a' }]);
  });

  it('keeps the entries before a line torn by a killed worker', () => {
    const { ledger } = freshLedger();
    ledger.created('a');
    appendFileSync(ledger.file, '{"event":"archi');
    assert.deepEqual(outstanding([readText(ledger.file)]), [{ target: TARGET, id: 'a' }]);
  });

  it('archives the leftovers and removes the ledger when none is left behind', async () => {
    const { dir, ledger } = freshLedger();
    ledger.created('a');
    ledger.created('b');
    ledger.archived('b');
    const archived: string[] = [];
    const result = await sweepLedger('run1', async ({ id }) => void archived.push(id), dir);
    assert.deepEqual(archived, ['a']);
    assert.deepEqual(result, { found: [{ target: TARGET, id: 'a' }], leftBehind: [] });
    assert.equal(existsSync(ledger.file), false);
    assert.equal(describeSweep(result, 'run1'), 'run run1: archived 1 participant(s) that tests had not archived; left behind: none');
  });

  it('keeps the ledger and lists what could not be archived', async () => {
    const { dir, ledger } = freshLedger();
    ledger.created('a');
    ledger.created('b');
    const result = await sweepLedger('run1', async ({ id }) => (id === 'b' ? 'archiveParticipant answered HTTP 500' : undefined), dir);
    assert.deepEqual(result.leftBehind, [{ target: TARGET, id: 'b', reason: 'archiveParticipant answered HTTP 500' }]);
    assert.equal(existsSync(ledger.file), true);
    assert.match(
      describeSweep(result, 'run1'),
      /left behind: 1 participant\(s\), still listed in .*run1-\*\.jsonl:\n {2}- b at http:\/\/127\.0\.0\.1:4010: archiveParticipant answered HTTP 500$/,
    );
  });

  it('lists a creation only once it was confirmed: a refused one is gone, one never answered is pending', () => {
    const { ledger } = freshLedger();
    ledger.requested('refused');
    ledger.refused('refused');
    ledger.requested('confirmed');
    ledger.created('confirmed');
    ledger.requested('in-flight');
    // A second upsert of a created participant that is refused leaves it created.
    ledger.refused('confirmed');
    assert.deepEqual(outstanding([readText(ledger.file)]), [
      { target: TARGET, id: 'confirmed' },
      { target: TARGET, id: 'in-flight', pending: true },
    ]);
  });

  it('archives a creation never answered, and says apart, never as left behind, one it could not archive', async () => {
    const { dir, ledger } = freshLedger();
    ledger.requested('stored');
    ledger.requested('unknown');
    const archived: string[] = [];
    const result = await sweepLedger(
      'run1',
      async ({ id }) => (archived.push(id), id === 'unknown' ? 'login answered HTTP 401 without an access_token' : undefined),
      dir,
    );
    assert.deepEqual(archived, ['stored', 'unknown']);
    assert.deepEqual(result.leftBehind, []);
    assert.deepEqual(result.unconfirmed, [{ target: TARGET, id: 'unknown', pending: true, reason: 'login answered HTTP 401 without an access_token' }]);
    assert.equal(existsSync(ledger.file), true, 'kept, so that it can be checked later');
    const said = describeSweep(result, 'run1');
    assert.match(
      said,
      /^left behind: none\nrun run1: 1 creation\(s\) never answered could not be archived either; whether the target stored them is not known/,
    );
    assert.doesNotMatch(said, /archived \d+ participant/);
  });

  it('says "left behind: none" for a run that created nothing', async () => {
    const result = await sweepLedger('empty-run', async () => 'never called', freshDir());
    assert.equal(describeSweep(result, 'empty-run'), 'left behind: none');
  });
});

describe('the sweep archiver', () => {
  /** A target whose login works, whose archive answers 422 for every id, and whose read answers `readStatus`. */
  async function target(readStatus: number): Promise<{ baseUrl: string; close: () => void }> {
    const server = createServer((request, response) => {
      request.resume();
      const answer = (status: number, body: unknown): void => {
        response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      };
      if (request.method === 'POST' && request.url === '/login') answer(200, { access_token: 'opaque-token', name: 'Ada' });
      else if (request.method === 'PUT' && request.url?.endsWith('/archive') === true)
        answer(422, { statusCode: 422, error: 'Unprocessable Content', message: 'no such participant' });
      else if (request.method === 'GET' && request.url?.startsWith('/participants/') === true)
        answer(readStatus, readStatus === 200 ? { id: 'p-1' } : { statusCode: readStatus });
      else answer(500, {});
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return { baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => server.close() };
  }
  const config = loadTargetConfig({ TARGET_FILE: REFERENCE_TARGET_FILE });

  it('takes a refused archive whose read is refused too as nothing to archive', async () => {
    const { baseUrl, close } = await target(404);
    const sender = targetSender(config);
    try {
      assert.equal(await targetArchiver(config, [], sender)({ target: baseUrl, id: 'p-1' }), undefined);
    } finally {
      await sender.dispose();
      close();
    }
  });

  it('reports a refused archive of a participant that can still be read as left behind', async () => {
    const { baseUrl, close } = await target(200);
    const sender = targetSender(config);
    try {
      assert.equal(await targetArchiver(config, [], sender)({ target: baseUrl, id: 'p-1' }), 'archiveParticipant answered HTTP 422');
    } finally {
      await sender.dispose();
      close();
    }
  });
});

describe("the participant factory's ledger entries", () => {
  /** A client whose upsertParticipant answers `status` (or throws, as a request that got no answer). */
  function client(status: number | 'no answer'): ApiClient {
    const listeners: ((exchange: Exchange, params: Readonly<Record<string, string>>) => void)[] = [];
    const fake = {
      onExchange: (listener: (typeof listeners)[number]) => void listeners.push(listener),
      call: async (operationId: string, options: { body?: unknown; params?: Record<string, string> } = {}): Promise<Exchange> => {
        if (status === 'no answer') throw new Error('target did not finish its response within 10000 ms');
        const exchange = {
          operationId,
          request: { method: 'POST', url: 'http://127.0.0.1:4010/participants', headers: {}, body: JSON.stringify(options.body) },
          status,
          headers: {},
          text: '',
          json: undefined,
          curl: 'curl',
        } as unknown as Exchange;
        for (const listener of listeners) listener(exchange, options.params ?? {});
        return exchange;
      },
    };
    return fake as unknown as ApiClient;
  }

  it('records a creation as created only once it answered 2xx; a refused one is gone, one never answered stays pending', async () => {
    const { ledger } = freshLedger();
    await new ParticipantFactory(client(201), new NameSequence('cs-run1-w0'), ledger).create();
    await assert.rejects(new ParticipantFactory(client(401), new NameSequence('cs-run1-w1'), ledger).create(), /upsertParticipant answered HTTP 401/);
    await assert.rejects(new ParticipantFactory(client('no answer'), new NameSequence('cs-run1-w2'), ledger).create(), /did not finish/);
    assert.deepEqual(outstanding([readText(ledger.file)]), [
      { target: TARGET, id: 'cs-run1-w0-1' },
      { target: TARGET, id: 'cs-run1-w2-1', pending: true },
    ]);
  });

  it('confirms a reserved ID once an upsert of it answered 2xx', async () => {
    const { ledger } = freshLedger();
    const api = client(200);
    const factory = new ParticipantFactory(api, new NameSequence('cs-run1-w0'), ledger);
    const [stored, unsent] = [factory.reserveId(), factory.reserveId()];
    await api.call('upsertParticipant', { body: { participantId: stored, name: 'x' } });
    assert.deepEqual(outstanding([readText(ledger.file)]), [
      { target: TARGET, id: stored },
      { target: TARGET, id: unsent, pending: true },
    ]);
  });
});
