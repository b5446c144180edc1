/** The JSON body conditions (tests/conditions/format.ts). */
import { describe, it } from 'node:test';
import { bodyIsArray, declaresJson, parsesAsJson } from '../conditions/index.ts';
import { fails } from './condition-fails.ts';
import type { Answer } from '../conditions/index.ts';

const answer = (contentType: string | undefined, text: string): Answer => {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: 400, headers: contentType === undefined ? {} : { 'content-type': contentType }, text, json, curl: 'curl http://x' };
};

describe('conditions: JSON bodies', () => {
  it('declaresJson: application/json, with parameters, or a structured +json type', () => {
    declaresJson(answer('application/json; charset=utf-8', '{}'));
    declaresJson(answer('application/problem+json', '{}'));
    fails(() => declaresJson(answer('text/html', '<p>')), /the HTTP 400 body is declared as text\/html, not as JSON\ncurl http:\/\/x/);
    fails(() => declaresJson(answer(undefined, '{}')), /declared with no Content-Type/);
  });

  it('parsesAsJson: the body parses', () => {
    parsesAsJson(answer('application/json', '{"statusCode":400}'));
    fails(() => parsesAsJson(answer('application/json', 'Bad Request')), /the HTTP 400 body does not parse as JSON: Bad Request/);
  });
});

describe('conditions: format, a bare array', () => {
  it('bodyIsArray: the body is a JSON array', () => {
    bodyIsArray(answer('application/json', '[]'));
    fails(() => bodyIsArray(answer('application/json', '{"data":[]}')), /^the HTTP 400 body is \{"data":\[\]\}, not an array\ncurl http:\/\/x$/);
  });
});
