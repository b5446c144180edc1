/** What an answer for an unknown id still holds (tests/conditions/asked-for.ts). */
import { describe, it } from 'node:test';
import { holdsTheFieldsAskedFor, isTheRecordAskedFor, listsOnlyOfRoom } from '../conditions/index.ts';
import { fails } from './condition-fails.ts';

describe('conditions: asked-for', () => {
  it('isTheRecordAskedFor: the record answered names the id asked for', () => {
    isTheRecordAskedFor({ id: 'g-1', name: 'a group' }, ['id'], 'g-1');
    isTheRecordAskedFor({ channel: { name: 'ch-1' } }, ['channel', 'name'], 'ch-1');
    fails(() => isTheRecordAskedFor({ id: 'g-2' }, ['id'], 'g-1'), /id of the record answered is "g-2", not "g-1", the one asked for/);
    fails(() => isTheRecordAskedFor({ channel: 'ch-1' }, ['channel', 'name'], 'ch-1'), /channel\.name of the record answered is undefined/);
    fails(() => isTheRecordAskedFor([], ['id'], 'g-1'), /not "g-1"/);
  });

  it('listsOnlyOfRoom: every item names the room asked for', () => {
    listsOnlyOfRoom([{ roomId: 'r-1' }, { roomId: 'r-1' }], 'r-1');
    listsOnlyOfRoom([], 'r-1');
    fails(() => listsOnlyOfRoom([{ roomId: 'r-1' }, { roomId: 'r-2' }, { name: 'x' }], 'r-1'), /2 of 3 items name a roomId other than "r-1": \["r-2",null\]/);
  });

  it('holdsTheFieldsAskedFor: the record answered carries the fields of the one asked for', () => {
    const answer = (json: unknown) => ({ status: 200, headers: {}, text: JSON.stringify(json), json, curl: 'curl http://target/p/p-1' });
    holdsTheFieldsAskedFor(answer({ id: 'p-1', name: 'Ann', email: 'ann@example.com', avatar: 'x' }), { id: 'p-1', name: 'Ann', email: 'ann@example.com' });
    fails(
      () => holdsTheFieldsAskedFor(answer({ id: 'p-2', name: 'Ann' }), { id: 'p-1', name: 'Ann', email: 'ann@example.com' }),
      /^the record answered is not the one asked for: id is "p-2", not "p-1"; email is undefined, not "ann@example.com"\ncurl http:\/\/target\/p\/p-1$/,
    );
    fails(() => holdsTheFieldsAskedFor(answer([]), { id: 'p-1' }), /id is undefined, not "p-1"/);
  });
});
