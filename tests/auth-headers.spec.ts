/**
 * Credential header names are case-insensitive (RFC 9110; the interface writes apikey and apiKey):
 * each spelling must get the same status as the canonical one, one check per operation and spelling. The client puts header names on the
 * wire as given, so the spellings really differ on the wire.
 *
 * Each operation is sent twice (both spellings together), with the parts of the rejection checks:
 * known data where the target has it, otherwise unknown ids, whose answer still shows that the
 * credential was accepted (anything but 401). archiveParticipant and closeMeeting name a missing
 * participant and an ended meeting, so nothing changes. createSecurityKey is sent without a
 * passphrase: a target refuses that after accepting the credential (or before looking at it, which
 * cannot fail the check), and no key pair is created; it is sent where the worker's discovery found
 * keys served (fixtures/data/served.ts), and not at all when that is POST /participants, where a body
 * without a passphrase is a participant upsert. A target that handles those requests loosely
 * would still carry them out, so they are checked in tests of their own, gated on the permission
 * the operation needs (support/permissions.ts).
 */
import { allOf, check, cites, expect, keyPathFor, notAssessed, test, together } from '../fixtures/index.ts';
import type { ApiClient, CallOptions, Discovery, Exchange, TargetConfig } from '../fixtures/index.ts';
import { accessToken, credentialHeadersSent, operationsWhere, orUnknown, requestParts, usageLimitReached } from './support/auth.ts';
import { permissionTags, requirePermission, sharesOf } from './support/permissions.ts';

type Spelled = Pick<CallOptions, 'auth' | 'headers'>;

interface SpellingCase {
  requirementId: string;
  operationId: string;
  /** The header names as written on the wire, e.g. ['apiKey']. */
  names: readonly string[];
  spelled: () => Promise<Spelled>;
}

/**
 * One check: the operation answers the same status under the canonical and another header spelling.
 * The two requests are sent inside the check, together (neither answer depends on the other); what keeps the comparison from meaning anything (the
 * canonical spelling refused, the usage-limit 403 of transcription statistics) makes it not assessable.
 * A client that did not put the spelling on the wire is the suite's error, raised outside the check.
 */
async function expectSameStatus(
  { api, discover, target }: { api: ApiClient; discover: Discovery; target: TargetConfig },
  spelling: SpellingCase,
): Promise<void> {
  const { requirementId, operationId, names } = spelling;
  const label = `${operationId} with the header name${names.length > 1 ? 's' : ''} ${names.join(' and ')} answers as with the canonical names`;
  let clientProblem: string | undefined;
  await check(requirementId, label, async () => {
    if (operationId === 'createSecurityKey' && (await keyPathFor(discover)) === '/participants') {
      // Keys served at POST /participants (VAR-03): there a body without a passphrase is an upsert, and one with it creates a key.
      notAssessed.check('the target serves security keys at POST /participants (VAR-03), where no request leaves the account unchanged');
    }
    const parts = operationId === 'createSecurityKey' ? { body: {} } : await requestParts(operationId, { discover, target, data: orUnknown });
    const spelled = await spelling.spelled();
    const [canonical, variant] = await allOf([api.call(operationId, parts), api.call(operationId, { ...parts, ...spelled })]);
    clientProblem = wireProblem(canonical, variant, names);
    if (clientProblem !== undefined) notAssessed.check(clientProblem);
    if (canonical.status === 401)
      notAssessed.check(`${operationId} refused the canonical header names too (HTTP 401): the documented credentials are judged by the authentication matrix`);
    if (usageLimitReached(canonical) || usageLimitReached(variant)) notAssessed.check(`${operationId} answered the documented usage-limit 403`);
    expect(
      variant.status,
      `${operationId} with ${names.join(' and ')} must answer as with the canonical names (HTTP ${canonical.status})\n${variant.curl}`,
    ).toBe(canonical.status);
  });
  if (clientProblem !== undefined) throw new Error(`suite error: ${clientProblem}`);
}

/** What differs on the wire besides the header names (nothing should: the same credentials, only spelled otherwise). */
function wireProblem(canonical: Exchange, variant: Exchange, names: readonly string[]): string | undefined {
  const missing = names.filter((name) => !Object.keys(variant.request.headers).includes(name));
  if (missing.length > 0) return `the client did not send the header name(s) ${missing.join(', ')} as written`;
  const sent = credentialHeadersSent(variant).join(', ');
  const expected = credentialHeadersSent(canonical).join(', ');
  return sent === expected ? undefined : `the client sent the credentials ${sent} under ${names.join(' and ')}, not ${expected}`;
}

/** Written to the wire exactly so; the canonical spelling is apikey. */
const API_KEY_SPELLINGS = ['apiKey', 'APIKEY'] as const;

const API_KEY_SHARES = sharesOf(
  operationsWhere((credentials) => credentials.apiKey, ['upsertParticipant']),
  (operationId) => operationId,
);

for (const spelling of API_KEY_SPELLINGS) {
  for (const share of API_KEY_SHARES) {
    test(
      `every API-key operation accepts the API key under the header name ${spelling}${share.label}`,
      cites('AUTH-22', { tag: permissionTags(share.permission) }),
      async ({ api, discover, target }) => {
        requirePermission(target, share.permission, share.operations);
        await together(share.operations, async (operationId) => {
          await expectSameStatus(
            { api, discover, target },
            { requirementId: 'AUTH-22', operationId, names: [spelling], spelled: async () => ({ auth: { apiKeyHeader: spelling } }) },
          );
        });
      },
    );
  }
}

const CLIENT_SPELLINGS = [
  { clientId: 'CLIENT_ID', secret: 'SECRET' },
  { clientId: 'Client_Id', secret: 'Secret' },
] as const;

const CLIENT_SHARES = sharesOf(
  operationsWhere((credentials) => credentials.clientId && credentials.secret),
  (operationId) => operationId,
);

for (const spelling of CLIENT_SPELLINGS) {
  for (const share of CLIENT_SHARES) {
    test(
      `every client-credential operation accepts the header names ${spelling.clientId} and ${spelling.secret}${share.label}`,
      cites('AUTH-23', { tag: permissionTags(share.permission) }),
      async ({ api, discover, target }) => {
        requirePermission(target, share.permission, share.operations);
        const headers = { [spelling.clientId]: target.clientId, [spelling.secret]: target.secret };
        await together(share.operations, async (operationId) => {
          await expectSameStatus(
            { api, discover, target },
            { requirementId: 'AUTH-23', operationId, names: [spelling.clientId, spelling.secret], spelled: async () => ({ headers }) },
          );
        });
      },
    );
  }
}

const AUTHORIZATION_SPELLINGS = ['authorization', 'AUTHORIZATION'] as const;

const BEARER_SHARES = sharesOf(
  operationsWhere((credentials) => credentials.bearer, ['upsertParticipant']),
  (operationId) => operationId,
);

for (const spelling of AUTHORIZATION_SPELLINGS) {
  for (const share of BEARER_SHARES) {
    test(
      `every bearer operation accepts the bearer token under the header name ${spelling}${share.label}`,
      cites('AUTH-24', { tag: permissionTags(share.permission) }),
      async ({ api, discover, target }) => {
        requirePermission(target, share.permission, share.operations);
        const spelled = async (): Promise<Spelled> => ({ auth: { bearer: null }, headers: { [spelling]: `Bearer ${await accessToken(api)}` } });
        await together(share.operations, async (operationId) => {
          await expectSameStatus({ api, discover, target }, { requirementId: 'AUTH-24', operationId, names: [spelling], spelled });
        });
      },
    );
  }
}

const UPSERT_SPELLINGS = [
  { requirementId: 'AUTH-22', name: 'the apikey header as apiKey', send: async (): Promise<Spelled> => ({ auth: { apiKeyHeader: 'apiKey' } }) },
  { requirementId: 'AUTH-22', name: 'the apikey header as APIKEY', send: async (): Promise<Spelled> => ({ auth: { apiKeyHeader: 'APIKEY' } }) },
  {
    requirementId: 'AUTH-24',
    name: 'the Authorization header as authorization',
    send: async (api: ApiClient): Promise<Spelled> => ({ auth: { bearer: null }, headers: { authorization: `Bearer ${await accessToken(api)}` } }),
  },
  {
    requirementId: 'AUTH-24',
    name: 'the Authorization header as AUTHORIZATION',
    send: async (api: ApiClient): Promise<Spelled> => ({ auth: { bearer: null }, headers: { AUTHORIZATION: `Bearer ${await accessToken(api)}` } }),
  },
] as const;

test(
  'a participant update is accepted under any spelling of the apikey and Authorization header names',
  cites('AUTH-22', 'AUTH-24', { tag: ['@writes'] }),
  async ({ api, createParticipant }) => {
    // Created with the canonical names: the status every spelling must give again.
    const created = await createParticipant();
    await together(UPSERT_SPELLINGS, async (spelling) => {
      await check(spelling.requirementId, `upsertParticipant with ${spelling.name} answers as with the canonical names`, async () => {
        // The same body again: an accepted update leaves the participant as it was.
        const exchange = await api.call('upsertParticipant', { body: created.input, ...(await spelling.send(api)) });
        expect(exchange.status, `with ${spelling.name} (the canonical names got HTTP ${created.exchange.status})\n${exchange.curl}`).toBe(
          created.exchange.status,
        );
      });
    });
  },
);
