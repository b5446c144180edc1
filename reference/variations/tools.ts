/**
 * Building blocks of the allowed variations, and what a variation is; the blocks the faults share are in
 * reference/faults/tools.ts.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { defaultBehaviour, type Behaviour } from '../behaviour.ts';
import type { ReferenceOptions } from '../options.ts';
import type { SeedFile } from '../seed-types.ts';
import { loadSeed } from '../store.ts';
import { badRequest } from '../errors.ts';
import { beforeHandler, beforeRoutes, queryOf, type JsonObject, type OperationId, type OptionsTransform } from '../faults/tools.ts';

export interface VariationDescription {
  name: string;
  description: string;
  /** What leaves the choice open: the interface's words, or what it does not show. */
  basis: string;
  /** The entry of spec/requirements.yaml about this point, when there is one. */
  requirement?: string;
  /** Variations making another choice on the same point: they cannot be switched on together. */
  excludes?: readonly string[];
}

export interface Variation extends VariationDescription {
  apply: OptionsTransform;
  /** How the variation renames the seed's ids (groups, participants, meetings, rooms), for a profile that names them. */
  renameId?: (id: string) => string;
}

/** Replaces one piece of behaviour by a wrapper of the piece in place, so that variations compose. */
export function wrapBehaviour<K extends keyof Behaviour>(key: K, wrap: (current: Behaviour[K]) => Behaviour[K]): OptionsTransform {
  return (options) => {
    const current = (options.behaviour?.[key] ?? defaultBehaviour[key]) as Behaviour[K];
    return { ...options, behaviour: { ...options.behaviour, [key]: wrap(current) } };
  };
}

export const withLayout =
  (layout: NonNullable<ReferenceOptions['layout']>): OptionsTransform =>
  (options) => ({ ...options, layout: { ...options.layout, ...layout } });

export const withVariants =
  (...names: string[]): OptionsTransform =>
  (options) => ({ ...options, variants: [...new Set([...(options.variants ?? []), ...names])] });

export const withSeed =
  (change: (seed: SeedFile) => SeedFile): OptionsTransform =>
  (options) => ({ ...options, seed: change(options.seed === undefined ? loadSeed() : structuredClone(options.seed)) });

export const isJsonType = (reply: FastifyReply): boolean => /^application\/(?:[\w.-]+\+)?json\b/i.test(String(reply.getHeader('content-type') ?? ''));

export interface AnswerContext {
  request: FastifyRequest;
  reply: FastifyReply;
  app: FastifyInstance;
}

/** Rewrites every JSON answer of the instance (operations, the 404 handler, framework errors); undefined keeps it. */
export function everyJsonAnswer(rewrite: (body: unknown, context: AnswerContext) => unknown): OptionsTransform {
  return beforeRoutes((app) => {
    app.addHook('onSend', async (request, reply, payload) => {
      if (typeof payload !== 'string' || payload === '' || !isJsonType(reply)) return payload;
      const changed = rewrite(JSON.parse(payload) as unknown, { request, reply, app });
      return changed === undefined ? payload : JSON.stringify(changed);
    });
  });
}

/** Runs on every answer, after the body is serialised; returns the payload to send. */
export function everyAnswer(change: (payload: unknown, context: AnswerContext) => unknown): OptionsTransform {
  return beforeRoutes((app) => {
    app.addHook('onSend', async (request, reply, payload) => change(payload, { request, reply, app }));
  });
}

/** JSON answers labelled with what `label` makes of their media type without its parameters. */
export function relabelJson(label: (bare: string) => string): OptionsTransform {
  return everyAnswer((payload, { reply }) => {
    if (isJsonType(reply)) reply.header('content-type', label(String(reply.getHeader('content-type') ?? '').replace(/\s*;.*$/, '')));
    return payload;
  });
}

/**
 * The operation refuses with 400 and `message` a request whose query `lacks` what the variation
 * requires, after its own credential check (`authenticate`), so that a missing credential still
 * answers 401.
 */
export function refusedWithout(
  operation: OperationId,
  authenticate: (auth: FastifyInstance['auth'], request: FastifyRequest) => Promise<unknown>,
  lacks: (query: JsonObject) => boolean,
  message: string,
): OptionsTransform {
  return beforeHandler([operation], async (request, _reply, app) => {
    await authenticate(app.auth, request);
    if (lacks(queryOf(request))) throw badRequest(message);
  });
}
