/** What a body holds field by field (tests/conditions/fields.ts). */
import { describe, it } from 'node:test';
import { holdsString, isEmptyObject, stringWhenPresent } from '../conditions/index.ts';
import { fails } from './condition-fails.ts';

const body = (json: unknown, text = JSON.stringify(json) ?? ''): { status: number; json: unknown; text: string; curl: string } => ({
  status: 200,
  json,
  text,
  curl: 'curl http://x',
});

describe('conditions: fields', () => {
  it('holdsString: the field is a string', () => {
    holdsString(body({ name: 'Ada' }), 'name');
    holdsString(body({ name: '' }), 'name');
    fails(() => holdsString(body({ name: 7 }), 'name'), /name of the HTTP 200 body is 7: expected a string\ncurl http:\/\/x/);
    fails(() => holdsString(body(['Ada']), 'name'), /name of the HTTP 200 body is undefined: expected a string/);
  });

  it('stringWhenPresent: absent, or a string', () => {
    stringWhenPresent({ statusCode: 401, message: 'no' }, 'error');
    stringWhenPresent({ error: 'Unauthorized' }, 'error');
    stringWhenPresent(undefined, 'error');
    fails(
      () => stringWhenPresent({ error: { code: 1 } }, 'error', { curl: 'curl http://x' }),
      /error is \{"code":1\}: expected a string, or no error\ncurl http:\/\/x/,
    );
    fails(() => stringWhenPresent({ error: null }, 'error'), /error is null: expected a string, or no error/);
  });

  it('isEmptyObject: exactly {}', () => {
    isEmptyObject(body({}));
    fails(() => isEmptyObject(body({ closed: true })), /the HTTP 200 body is \{"closed":true\}: expected exactly \{\}/);
    fails(() => isEmptyObject(body([])), /the HTTP 200 body is \[\]: expected exactly \{\}/);
    fails(() => isEmptyObject(body(undefined, '')), /the HTTP 200 body is \(empty\): expected exactly \{\}/);
  });
});
