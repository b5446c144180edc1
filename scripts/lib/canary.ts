/**
 * Pure logic of the canary check (scripts/checks/check-canary.ts does the I/O; the per-run canary credentials
 * and the seed and profile that carry them are in canary-seed.ts): the tap that records every credential the
 * reference hands out, the spellings under which a credential can hide in a report, the reading of
 * blob reports (zip archives), and the search.
 */
import { randomBytes } from 'node:crypto';
import { inflateRawSync } from 'node:zlib';
import { wordlist } from '@scure/bip39/wordlists/english.js';
import type { FastifyInstance } from 'fastify';
import { LiteralMatcher } from '../../fixtures/evidence/literals.ts';
import { mnemonicSpans } from '../../fixtures/evidence/redact.ts';
import { MAX_SECRET_LENGTH, MIN_SECRET_LENGTH } from '../../fixtures/evidence/secrets.ts';

/** One string to look for, and what it stands for (never the value itself). */
export interface Needle {
  name: string;
  text: string;
}

/**
 * The parts of base64(prefix + value) that depend on the value alone, for each of the three
 * alignments a value can have inside a longer base64 text: a credential inside a base64-encoded
 * attachment or data URL is found whatever precedes it.
 */
export function base64Fragments(value: string): string[] {
  const length = Buffer.byteLength(value);
  const fragments: string[] = [];
  for (let offset = 0; offset < 3; offset += 1) {
    const encoded = Buffer.concat([Buffer.alloc(offset), Buffer.from(value)]).toString('base64');
    const start = Math.ceil((offset * 8) / 6);
    const end = Math.floor(((offset + length) * 8) / 6);
    const fragment = encoded.slice(start, end);
    fragments.push(fragment, fragment.replace(/\+/g, '-').replace(/\//g, '_'));
  }
  return [...new Set(fragments)].filter((fragment) => fragment.length >= 8);
}

/** Every spelling to search for: plain, URL-encoded, JSON-escaped and base64 (alone and as user:password pairs). */
export function needles(values: readonly { name: string; value: string }[], pairs: readonly { name: string; user: string; password: string }[]): Needle[] {
  const found = new Map<string, string>();
  const add = (name: string, text: string): void => {
    if (text.length >= 6 && !found.has(text)) found.set(text, name);
  };
  for (const { name, value } of values) {
    add(name, value);
    add(`${name} (URL-encoded)`, encodeURIComponent(value));
    add(`${name} (JSON-escaped)`, JSON.stringify(value).slice(1, -1));
    for (const fragment of base64Fragments(value)) add(`${name} (base64)`, fragment);
  }
  for (const { name, user, password } of pairs) {
    for (const fragment of base64Fragments(`${user}:${password}`)) add(`${name} (base64 user:password, as in Basic auth)`, fragment);
  }
  return [...found].map(([text, name]) => ({ name, text }));
}

/** Credentials that nobody configured but that a run produces: found by their form. */
export interface Pattern {
  name: string;
  /** [start, end) of every occurrence. */
  find: (text: string) => [number, number][];
}

const matches =
  (regex: RegExp) =>
  (text: string): [number, number][] =>
    [...text.matchAll(regex)].map((match) => [match.index, match.index + match[0].length]);

export const ISSUED_SECRET_PATTERNS: readonly Pattern[] = [
  { name: 'a JWT (an access token or the expired token)', find: matches(/eyJ[A-Za-z0-9_-]*\.eyJ[A-Za-z0-9_-]*\.[A-Za-z0-9_-]*/g) },
  { name: 'a PEM private key body', find: matches(/-----BEGIN [A-Z ]*PRIVATE KEY-----(?!\[REDACTED\])\s*[A-Za-z0-9+/=]{16}/g) },
  { name: 'a secretKey (12 or more BIP-39 words in a row)', find: mnemonicSpans },
  { name: 'a passphrase made by generatedSecret()', find: matches(/CsSecret-[0-9a-f]{24}/g) },
];

export interface Hit {
  /** Where: a file path or 'console output'. */
  source: string;
  what: string;
  /** The surrounding text with the hit itself replaced by a marker. */
  context: string;
}

const CONTEXT = 60;

function contextOf(text: string, index: number, length: number, what: string): string {
  const before = text.slice(Math.max(0, index - CONTEXT), index);
  const after = text.slice(index + length, index + length + CONTEXT);
  return `${before}[CANARY: ${what}]${after}`.replace(/\s+/g, ' ');
}

/** One matcher per needle list: a run searches tens of megabytes for hundreds of needles. */
const compiledNeedles = new WeakMap<readonly Needle[], { matcher: LiteralMatcher; names: Map<string, string> }>();

function compiledOf(needleList: readonly Needle[]): { matcher: LiteralMatcher; names: Map<string, string> } {
  let compiled = compiledNeedles.get(needleList);
  if (compiled === undefined) {
    compiled = { matcher: new LiteralMatcher(needleList.map((needle) => needle.text)), names: new Map(needleList.map((needle) => [needle.text, needle.name])) };
    compiledNeedles.set(needleList, compiled);
  }
  return compiled;
}

/** Every occurrence of a needle or a pattern in `text`; contexts never show a hit. */
export function search(source: string, text: string, needleList: readonly Needle[], patterns: readonly Pattern[]): Hit[] {
  const hits: Hit[] = [];
  const { matcher, names } = compiledOf(needleList);
  for (const [start, end] of matcher.find(text)) {
    const what = names.get(text.slice(start, end)) ?? 'a canary value';
    hits.push({ source, what, context: contextOf(text, start, end - start, what) });
  }
  for (const pattern of patterns) {
    for (const [start, end] of pattern.find(text)) hits.push({ source, what: pattern.name, context: contextOf(text, start, end - start, pattern.name) });
  }
  if (hits.length === 0) return hits;
  // A context may still hold another hit nearby; mask every needle in it too.
  return hits.map((hit) => ({ ...hit, context: maskAll(hit.context, matcher) }));
}

function maskAll(text: string, matcher: LiteralMatcher): string {
  const spans = matcher.find(text);
  let result = text;
  for (const [start, end] of [...spans].reverse()) result = `${result.slice(0, start)}[CANARY]${result.slice(end)}`;
  return result;
}

/**
 * What the redaction reporter's last pass says when it still found credentials in the report files
 * (fixtures/reporters/redaction.ts, onExit): it has removed them, so a search of the files cannot see
 * them any more, but a layer before it let them through.
 */
const LAST_PASS_FOUND = /^redaction: credentials were still present in .*(?:\n {2}\S.*)*/gm;

/** Each time a run's output says its last redaction pass still found credentials, naming the files. */
export function lastPassFindings(source: string, output: string): Hit[] {
  return [...output.matchAll(LAST_PASS_FOUND)].map((match) => ({
    source,
    what: "the redaction reporter's last pass still found credentials (removed only then: an earlier layer let them through)",
    context: match[0]
      .split('\n')
      .slice(1)
      .map((line) => line.trim())
      .join(', '),
  }));
}

// ---------------------------------------------------------------- what the reference hands out

/**
 * Every credential a reference instance handed out or was given during a run, recorded from its
 * requests and answers (an onSend hook registered from outside, like a fault's): access tokens
 * (JWT or opaque), secretKeys, private keys, passphrases. None of them is in the profile; the check
 * looks for each of them, in every spelling, wherever the run wrote.
 */
export class IssuedSecrets {
  readonly tokens = new Set<string>();
  readonly secretKeys = new Set<string>();
  readonly privateKeys = new Set<string>();
  readonly passphrases = new Set<string>();
  /** Answers by status class, to tell that a run reached the instance at all. */
  readonly answers = new Map<string, number>();

  /** The extension that records them; give it last in `beforeRoutes`, so that it sees the final answers. */
  tap(): (app: FastifyInstance) => void {
    return (app) => {
      app.addHook('onSend', async (request, reply, payload) => {
        const statusClass = `${String(reply.statusCode).slice(0, 1)}xx`;
        this.answers.set(statusClass, (this.answers.get(statusClass) ?? 0) + 1);
        const sent: unknown = request.body;
        if (typeof sent === 'object' && sent !== null && typeof (sent as Record<string, unknown>)['passphrase'] === 'string')
          this.#passphrase((sent as Record<string, string>)['passphrase'] ?? '');
        if (typeof payload === 'string' && payload.startsWith('{')) this.#answer(payload);
        return payload;
      });
    };
  }

  #answer(payload: string): void {
    let body: unknown;
    try {
      body = JSON.parse(payload);
    } catch {
      return;
    }
    if (typeof body !== 'object' || body === null) return;
    const field = (name: string): string | undefined => {
      const value = (body as Record<string, unknown>)[name];
      return typeof value === 'string' && value !== '' ? value : undefined;
    };
    const token = field('access_token');
    if (token !== undefined) this.tokens.add(token);
    const secretKey = field('secretKey');
    if (secretKey !== undefined) this.secretKeys.add(secretKey);
    const privateKey = field('privateKey');
    if (privateKey !== undefined) this.privateKeys.add(privateKey);
    const passphrase = field('passphrase');
    if (passphrase !== undefined) this.#passphrase(passphrase);
  }

  #passphrase(passphrase: string): void {
    // The same bounds as the harness's (fixtures/evidence/secrets.ts): shorter is no secret, longer is filler (a 100 000-character probe).
    if (passphrase.trim().length >= MIN_SECRET_LENGTH && passphrase.length <= MAX_SECRET_LENGTH) this.passphrases.add(passphrase);
  }

  /** The values to search for, named by kind (never by value). */
  values(): { name: string; value: string }[] {
    return [
      ...[...this.tokens].map((value) => ({
        name: /^eyJ/.test(value) ? 'an access token the target issued (JWT)' : 'an opaque access token the target issued',
        value,
      })),
      ...[...this.secretKeys].map((value) => ({ name: 'a secretKey the target issued', value })),
      ...[...this.passphrases].map((value) => ({ name: 'a passphrase of a security key', value })),
      ...[...this.privateKeys].flatMap((value) => [
        { name: 'a privateKey the target issued', value },
        ...pemLines(value).map((line) => ({ name: 'a line of a privateKey the target issued', value: line })),
      ]),
    ];
  }
}

/** The lines of a PEM body long enough to be key material on their own. */
export function pemLines(pem: string): string[] {
  const body = /-----BEGIN [A-Z0-9 ]+-----([\s\S]*?)-----END/.exec(pem)?.[1] ?? '';
  return body
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line.length >= 16);
}

// ---------------------------------------------------------------- slices of secretKeys

const BIP39 = new Set(wordlist);
/** As in the harness (fixtures/evidence/redact.ts MIN_KEY_SLICE): three words of a key in their order. */
const KEY_SLICE_WORDS = 3;
const KEY_SLICE_GAP = 24;

function isWordCharacter(text: string, index: number): boolean {
  const code = text.charCodeAt(index);
  if ((code >= 0x30 && code <= 0x39) || (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a)) return true;
  return code > 0x7f && /[\p{L}\p{N}]/u.test(text.charAt(index));
}

/** Where the next word starts from `index` on: past what is not a letter or digit; an escaped line break or tab (`\n`) separates like a space. */
function nextWordStart(text: string, index: number): number {
  let at = index;
  while (at < text.length && !isWordCharacter(text, at)) at += text.charCodeAt(at) === 0x5c && /[nrt]/.test(text.charAt(at + 1)) ? 2 : 1;
  return at;
}

/** Where the word that starts at `start` ends: past its run of letters and digits. */
function wordEnd(text: string, start: number): number {
  let at = start;
  while (at < text.length && isWordCharacter(text, at)) at += 1;
  return at;
}

/** The words of a text: maximal runs of letters and digits (the search walks them the same way, without the objects). */
function* words(text: string): Generator<{ start: number; end: number }> {
  for (let start = nextWordStart(text, 0); start < text.length;) {
    const end = wordEnd(text, start);
    yield { start, end };
    start = nextWordStart(text, end);
  }
}

/**
 * A part of an issued secretKey: three or more of its words in their order, whatever separates
 * them. A single word is not (the interface's keys are English words, which reports write of their
 * own accord). Written apart from the harness's matcher, which it checks.
 */
export function keySlicePattern(keys: Iterable<string>): Pattern {
  const places = new Map<string, { key: number; index: number }[]>();
  [...keys].forEach((key, keyNumber) => {
    const lower = key.toLowerCase();
    [...words(lower)].forEach(({ start, end }, index) => {
      const word = lower.slice(start, end);
      places.set(word, [...(places.get(word) ?? []), { key: keyNumber, index }]);
    });
  });
  const longest = Math.max(0, ...[...places.keys()].map((word) => word.length));
  return {
    name: 'a part of a secretKey (three of its words in their order)',
    find: (text) => {
      if (places.size === 0) return [];
      const found: [number, number][] = [];
      let run: { start: number; end: number; count: number; at: { key: number; index: number }[] } | undefined;
      for (let start = nextWordStart(text, 0); start < text.length;) {
        const end = wordEnd(text, start);
        const at = end - start > longest ? undefined : places.get(text.slice(start, end).toLowerCase());
        if (at === undefined) {
          run = undefined;
        } else {
          const next =
            run !== undefined && start - run.end <= KEY_SLICE_GAP
              ? at.filter((place) => run?.at.some((before) => before.key === place.key && before.index + 1 === place.index))
              : [];
          run = run !== undefined && next.length > 0 ? { start: run.start, end, count: run.count + 1, at: next } : { start, end, count: 1, at };
          if (run.count === KEY_SLICE_WORDS) found.push([run.start, end]);
        }
        start = nextWordStart(text, end);
      }
      return found;
    },
  };
}

/**
 * Words of letters that are not in the BIP-39 English list, for a target whose secretKey words are
 * not English (SEC-08 counts them): the warning about them, when SEC-08 was a SHOULD, once quoted five of them.
 */
export function foreignWords(count: number, random: (bytes: number) => Buffer = randomBytes): string[] {
  const letters = 'bcdfghjklmnpqrstvwxz';
  const vowels = 'aeiouy';
  const words = new Set<string>();
  while (words.size < count) {
    const bytes = random(7);
    const word = Array.from(bytes, (byte, index) => (index % 2 === 0 ? letters[byte % letters.length] : vowels[byte % vowels.length])).join('');
    if (!BIP39.has(word)) words.add(word);
  }
  return [...words];
}

// ---------------------------------------------------------------- blob reports

/** The files of a zip archive (a blob report), stored or deflated, read from its central directory. */
export function zipEntries(archive: Buffer): { name: string; data: Buffer }[] {
  const end = archive.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (end < 0) throw new Error('not a zip archive: no end of central directory');
  const count = archive.readUInt16LE(end + 10);
  let offset = archive.readUInt32LE(end + 16);
  const entries: { name: string; data: Buffer }[] = [];
  for (let index = 0; index < count; index += 1) {
    if (archive.readUInt32LE(offset) !== 0x02014b50) throw new Error(`zip central directory entry ${index} is damaged`);
    const method = archive.readUInt16LE(offset + 10);
    const compressedSize = archive.readUInt32LE(offset + 20);
    const nameLength = archive.readUInt16LE(offset + 28);
    const extraLength = archive.readUInt16LE(offset + 30);
    const commentLength = archive.readUInt16LE(offset + 32);
    const local = archive.readUInt32LE(offset + 42);
    const name = archive.subarray(offset + 46, offset + 46 + nameLength).toString('utf8');
    const dataStart = local + 30 + archive.readUInt16LE(local + 26) + archive.readUInt16LE(local + 28);
    const raw = archive.subarray(dataStart, dataStart + compressedSize);
    if (method !== 0 && method !== 8) throw new Error(`zip entry ${name} uses compression method ${method}`);
    entries.push({ name, data: method === 8 ? inflateRawSync(raw) : raw });
    offset += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}
