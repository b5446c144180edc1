import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import { notFound } from '../errors.ts';
import type { Environment } from '../seed-types.ts';
import type { Channel, Connection } from '../store.ts';

/**
 * A channel belongs to one room; its connected participants are the live connections on it.
 * Operations 14-15 form the versioned realtime interface (client credentials), registered under its
 * own prefix and possibly on its own origin; operation 16 belongs to the main interface (API key).
 */

function findChannel(app: FastifyInstance, environment: Environment, name: string): Channel {
  const channel = app.reference.store.environments[environment].channels.get(name);
  if (channel === undefined) throw notFound(`Channel ${name} not found`);
  return channel;
}

function connectedTo(app: FastifyInstance, environment: Environment, channel: Channel): Connection[] {
  return app.reference.store.environments[environment].connections.filter((connection) => connection.channelName === channel.name);
}

/** Operations 14-15 (the versioned realtime interface), at the prefix the app registers them under. */
export const versionedRealtimePlugin: FastifyPluginAsync = async (app) => {
  const { behaviour, config } = app.reference;

  const versionedParticipant = (connection: Connection, channel: Channel): Record<string, unknown> => ({
    id: connection.participantId,
    name: connection.name,
    connectionId: connection.connectionId,
    timestamp: connection.connectedAt,
    channel: config.variants.realtimeParticipantChannel === 'room-id' ? channel.roomId : channel.name,
  });

  app.get<{ Params: { channel: string } }>('/realtime/:channel', async (request) => {
    const client = app.auth.client(request);
    const channel = findChannel(app, client.environment, request.params.channel);
    const { id, name, participantId, startTime, endTime } = channel;
    return {
      channel: { ...(config.variants.channelIncludesId ? { id } : {}), name, participantId, apiKey: client.apiKey, startTime, endTime },
      events: behaviour.lastEvents(channel.events, behaviour.eventsLimit).map((event) => ({
        name: event.name,
        timestamp: event.timestamp,
        participantId: event.participantId,
        connectionId: event.connectionId,
        data: event.data,
      })),
      [config.variants.channelParticipantsField]: connectedTo(app, client.environment, channel).map((connection) => versionedParticipant(connection, channel)),
    };
  });

  app.get<{ Params: { channel_name: string } }>('/realtime/participants/:channel_name', async (request) => {
    const client = app.auth.client(request);
    const channel = findChannel(app, client.environment, request.params.channel_name);
    return connectedTo(app, client.environment, channel).map((connection) => versionedParticipant(connection, channel));
  });
};

/** Operation 16 on the main interface: a channel named in another room is unknown there. */
export const roomRealtimePlugin: FastifyPluginAsync = async (app) => {
  app.get<{ Params: { room: string; channel: string } }>('/realtime/participants/:room/:channel', async (request) => {
    const environment = app.auth.apiKey(request);
    const channel = app.auth.data(request, environment).channels.get(request.params.channel);
    if (channel === undefined || channel.roomId !== request.params.room) {
      throw notFound(`Channel ${request.params.channel} not found in room ${request.params.room}`);
    }
    return app.auth
      .data(request, environment)
      .connections.filter((connection) => connection.channelName === channel.name)
      .map((connection) => ({
        id: connection.participantId,
        name: connection.name,
        connectionId: connection.connectionId,
        timestamp: connection.connectedAt,
        roomId: channel.roomId,
      }));
  });
};
