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
import { allOf, check, cites, keyPathFor, notAssessed, test, together } from '../fixtures/index.ts';
import type { ApiClient, CallOptions, Discovery, Exchange, TargetConfig } from '../fixtures/index.ts';
import { hasStatus } from './conditions/index.ts';
import { accessToken, credentialHeadersSent, operationsWhere, orUnknown, requestParts, usageLimitReached } from './support/auth.ts';
import type { DocumentedCredentials } from './support/auth.ts';
import { permissionTags, requirePermission, sharesOf } from './support/permissions.ts';
import type { Share } from './support/permissions.ts';

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
    // The status the canonical names got.
    hasStatus(variant, canonical.status);
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

const shares = (documents: (credentials: DocumentedCredentials) => boolean, except: readonly string[] = []): Share<string>[] =>
  sharesOf(operationsWhere(documents, except), (operationId) => operationId);

/** One spelling of the credential header names, and the operations that document those headers (but upsertParticipant, checked below). */
interface HeaderSpelling {
  requirementId: string;
  /** The test title, before the share's label. */
  title: string;
  /** The header names as written on the wire. */
  names: readonly string[];
  shares: Share<string>[];
  spelled: (api: ApiClient, target: TargetConfig) => Promise<Spelled>;
}

/** Written to the wire exactly so; the canonical spellings are apikey, client_id and secret, and Authorization. */
const SPELLINGS: HeaderSpelling[] = [
  ...(['apiKey', 'APIKEY'] as const).map((name) => ({
    requirementId: 'AUTH-22',
    title: `every API-key operation accepts the API key under the header name ${name}`,
    names: [name],
    shares: shares((credentials) => credentials.apiKey, ['upsertParticipant']),
    spelled: async (): Promise<Spelled> => ({ auth: { apiKeyHeader: name } }),
  })),
  ...[
    { clientId: 'CLIENT_ID', secret: 'SECRET' },
    { clientId: 'Client_Id', secret: 'Secret' },
  ].map(({ clientId, secret }) => ({
    requirementId: 'AUTH-23',
    title: `every client-credential operation accepts the header names ${clientId} and ${secret}`,
    names: [clientId, secret],
    shares: shares((credentials) => credentials.clientId && credentials.secret),
    spelled: async (_api: ApiClient, target: TargetConfig): Promise<Spelled> => ({ headers: { [clientId]: target.clientId, [secret]: target.secret } }),
  })),
  ...(['authorization', 'AUTHORIZATION'] as const).map((name) => ({
    requirementId: 'AUTH-24',
    title: `every bearer operation accepts the bearer token under the header name ${name}`,
    names: [name],
    shares: shares((credentials) => credentials.bearer, ['upsertParticipant']),
    spelled: async (api: ApiClient): Promise<Spelled> => ({ auth: { bearer: null }, headers: { [name]: `Bearer ${await accessToken(api)}` } }),
  })),
];

for (const spelling of SPELLINGS) {
  const { requirementId, names } = spelling;
  for (const share of spelling.shares) {
    test(`${spelling.title}${share.label}`, cites(requirementId, { tag: permissionTags(share.permission) }), async ({ api, discover, target }) => {
      requirePermission(target, share.permission, share.operations);
      await together(share.operations, async (operationId) => {
        await expectSameStatus({ api, discover, target }, { requirementId, operationId, names, spelled: () => spelling.spelled(api, target) });
      });
    });
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
        hasStatus(exchange, created.exchange.status);
      });
    });
  },
);
