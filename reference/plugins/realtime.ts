import type { FastifyPluginAsync } from 'fastify';
import { notFound } from '../errors.ts';
import type { Environment } from '../seed-types.ts';
import type { Channel, Connection } from '../store.ts';

/**
 * Operations 14-15 under /v2 (client credentials) and 16 on the main interface (API key). A channel
 * belongs to one room; its connected participants are the live connections on it.
 */
export const realtimePlugin: FastifyPluginAsync = async (app) => {
  const { store, behaviour, config } = app.reference;

  const findChannel = (environment: Environment, name: string): Channel => {
    const channel = store.environments[environment].channels.get(name);
    if (channel === undefined) throw notFound(`Channel ${name} not found`);
    return channel;
  };

  const connectedTo = (environment: Environment, channel: Channel): Connection[] =>
    store.environments[environment].connections.filter((connection) => connection.channelName === channel.name);

  const versionedParticipant = (connection: Connection, channel: Channel): Record<string, unknown> => ({
    id: connection.participantId,
    name: connection.name,
    connectionId: connection.connectionId,
    timestamp: connection.connectedAt,
    channel: config.variants.realtimeParticipantChannel === 'room-id' ? channel.roomId : channel.name,
  });

  await app.register(
    async (v2) => {
      v2.get<{ Params: { channel: string } }>('/realtime/:channel', async (request) => {
        const client = app.auth.client(request);
        const channel = findChannel(client.environment, request.params.channel);
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
          [config.variants.channelParticipantsField]: connectedTo(client.environment, channel).map((connection) =>
            versionedParticipant(connection, channel),
          ),
        };
      });

      v2.get<{ Params: { channel_name: string } }>('/realtime/participants/:channel_name', async (request) => {
        const client = app.auth.client(request);
        const channel = findChannel(client.environment, request.params.channel_name);
        return connectedTo(client.environment, channel).map((connection) => versionedParticipant(connection, channel));
      });
    },
    { prefix: '/v2' },
  );

  app.get<{ Params: { room: string; channel: string } }>('/realtime/participants/:room/:channel', async (request) => {
    const environment = app.auth.apiKey(request);
    const channel = store.environments[environment].channels.get(request.params.channel);
    if (channel === undefined || channel.roomId !== request.params.room) {
      throw notFound(`Channel ${request.params.channel} not found in room ${request.params.room}`);
    }
    return connectedTo(environment, channel).map((connection) => ({
      id: connection.participantId,
      name: connection.name,
      connectionId: connection.connectionId,
      timestamp: connection.connectedAt,
      roomId: channel.roomId,
    }));
  });
};
