/**
 * Credential header names are case-insensitive (RFC 9110; the interface writes apikey and apiKey):
 * each spelling must get the same answer as the canonical one. The client puts header names on the
 * wire as given, so the spellings really differ on the wire.
 *
 * Each operation is sent twice (both spellings together), with the parts of the rejection checks:
 * known data where the target has it, otherwise unknown ids, whose answer still shows that the
 * credential was accepted (anything but 401). archiveParticipant and closeMeeting name a missing
 * participant and an ended meeting, so nothing changes. createSecurityKey is sent without a
 * passphrase: a target refuses that after accepting the credential (or before looking at it, which
 * cannot fail the check), and no key pair is created. A target that handles those requests loosely
 * would still carry them out, so they are checked in tests of their own, gated on the permission
 * the operation needs (support/permissions.ts).
 */
import { allOf, cites, expect, test, together } from '../fixtures/index.ts';
import type { ApiClient, CallOptions, Discovery, TargetConfig } from '../fixtures/index.ts';
import { credentialHeadersSent, operationsWhere, orUnknown, requestParts } from './support/auth.ts';
import { permissionTags, requirePermission, sharesOf } from './support/permissions.ts';

/** Compares the answers of one operation under the canonical and another header spelling. */
async function expectSameAnswer(
  { api, discover, target }: { api: ApiClient; discover: Discovery; target: TargetConfig },
  operationId: string,
  spelled: Pick<CallOptions, 'auth' | 'headers'>,
  names: readonly string[],
): Promise<void> {
  const spelling = names.join(' and ');
  const parts = operationId === 'createSecurityKey' ? { body: {} } : await requestParts(operationId, { discover, target, data: orUnknown });
  // Neither answer depends on the other: both go out together.
  const [canonical, variant] = await allOf([api.call(operationId, parts), api.call(operationId, { ...parts, ...spelled })]);
  // The same credentials, and only the header names differ.
  expect.soft(Object.keys(variant.request.headers), `${operationId}: header names sent`).toEqual(expect.arrayContaining([...names]));
  expect.soft(credentialHeadersSent(variant), `${operationId}: credentials sent under ${spelling}`).toEqual(credentialHeadersSent(canonical));
  expect.soft(canonical.status, `${operationId} with the canonical header names must pass authentication\n${canonical.curl}`).not.toBe(401);
  expect.soft(variant.status, `${operationId} with ${spelling} must answer as with the canonical names\n${variant.curl}`).toBe(canonical.status);
  if (variant.status < 300) expect.soft(variant).toMatchOperation(operationId, { status: canonical.status });
}

/** Written to the wire exactly so; the canonical spelling is apikey. */
const API_KEY_SPELLINGS = ['apiKey', 'APIKEY'] as const;

const API_KEY_SHARES = sharesOf(operationsWhere((credentials) => credentials.apiKey, ['upsertParticipant']), (operationId) => operationId);

for (const spelling of API_KEY_SPELLINGS) {
  for (const share of API_KEY_SHARES) {
    test(`every API-key operation accepts the API key under the header name ${spelling}${share.label}`, cites('AUTH-22', { tag: permissionTags(share.permission) }), async ({ api, discover, target }) => {
      requirePermission(target, share.permission, share.operations);
      await together(share.operations, async (operationId) => {
        await expectSameAnswer({ api, discover, target }, operationId, { auth: { apiKeyHeader: spelling } }, [spelling]);
      });
    });
  }
}

const CLIENT_SPELLINGS = [
  { clientId: 'CLIENT_ID', secret: 'SECRET' },
  { clientId: 'Client_Id', secret: 'Secret' },
] as const;

const CLIENT_SHARES = sharesOf(operationsWhere((credentials) => credentials.clientId && credentials.secret), (operationId) => operationId);

for (const spelling of CLIENT_SPELLINGS) {
  for (const share of CLIENT_SHARES) {
    test(
      `every client-credential operation accepts the header names ${spelling.clientId} and ${spelling.secret}${share.label}`,
      cites('AUTH-23', { tag: permissionTags(share.permission) }),
      async ({ api, discover, target }) => {
        requirePermission(target, share.permission, share.operations);
        await together(share.operations, async (operationId) => {
          const headers = { [spelling.clientId]: target.clientId, [spelling.secret]: target.secret };
          await expectSameAnswer({ api, discover, target }, operationId, { headers }, [spelling.clientId, spelling.secret]);
        });
      },
    );
  }
}

const AUTHORIZATION_SPELLINGS = ['authorization', 'AUTHORIZATION'] as const;

const BEARER_SHARES = sharesOf(operationsWhere((credentials) => credentials.bearer, ['upsertParticipant']), (operationId) => operationId);

for (const spelling of AUTHORIZATION_SPELLINGS) {
  for (const share of BEARER_SHARES) {
    test(`every bearer operation accepts the bearer token under the header name ${spelling}${share.label}`, cites('AUTH-24', { tag: permissionTags(share.permission) }), async ({ api, discover, target }) => {
      requirePermission(target, share.permission, share.operations);
      const token = await api.bearer();
      await together(share.operations, async (operationId) => {
        await expectSameAnswer({ api, discover, target }, operationId, { auth: { bearer: null }, headers: { [spelling]: `Bearer ${token}` } }, [spelling]);
      });
    });
  }
}

const UPSERT_SPELLINGS = [
  { name: 'the apikey header as apiKey', send: (): Pick<CallOptions, 'auth' | 'headers'> => ({ auth: { apiKeyHeader: 'apiKey' } }) },
  { name: 'the apikey header as APIKEY', send: (): Pick<CallOptions, 'auth' | 'headers'> => ({ auth: { apiKeyHeader: 'APIKEY' } }) },
  {
    name: 'the Authorization header as authorization',
    send: (token: string): Pick<CallOptions, 'auth' | 'headers'> => ({ auth: { bearer: null }, headers: { authorization: `Bearer ${token}` } }),
  },
  {
    name: 'the Authorization header as AUTHORIZATION',
    send: (token: string): Pick<CallOptions, 'auth' | 'headers'> => ({ auth: { bearer: null }, headers: { AUTHORIZATION: `Bearer ${token}` } }),
  },
] as const;

test(
  'a participant update is accepted under any spelling of the apikey and Authorization header names',
  cites('AUTH-22', 'AUTH-24', { tag: ['@writes'] }),
  async ({ api, createParticipant }) => {
    const created = await createParticipant();
    const token = await api.bearer();
    await together(UPSERT_SPELLINGS, async (spelling) => {
      // The same body again: an accepted update leaves the participant as it was.
      const exchange = await api.call('upsertParticipant', { body: created.input, ...spelling.send(token) });
      expect.soft(exchange, `with ${spelling.name}`).toMatchOperation('upsertParticipant', { status: 201 });
    });
  },
);
