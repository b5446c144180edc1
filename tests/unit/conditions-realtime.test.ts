/** The shapes of the realtime channel info (tests/conditions/realtime.ts). */
import { describe, it } from 'node:test';
import { everyEventIsRealtimeEvent, isRealtimeChannel } from '../conditions/index.ts';
import { fails } from './condition-fails.ts';

const CHANNEL = { name: 'ch-1', participantId: 'p-1', apiKey: 'k-1', startTime: 1717200000000, endTime: null };
const EVENT = { name: 'joined', timestamp: 1717200000000, participantId: 'p-1', connectionId: null, data: {} };

describe('conditions: realtime', () => {
  it('isRealtimeChannel: name, participantId and apiKey strings, integer startTime, integer or null endTime, a string id when present', () => {
    isRealtimeChannel(CHANNEL);
    isRealtimeChannel({ ...CHANNEL, endTime: 1717200060000, id: 'c-1' });
    fails(() => isRealtimeChannel({ ...CHANNEL, startTime: 1.5 }), /startTime is 1\.5, not an integer/);
    fails(() => isRealtimeChannel({ ...CHANNEL, endTime: '2024' }), /endTime is "2024", not an integer or null/);
    fails(() => isRealtimeChannel({ ...CHANNEL, apiKey: undefined, id: 7 }), /apiKey is undefined, not a string; id is 7, not a string/);
    fails(() => isRealtimeChannel([]), /the channel is \[\], not an object/);
  });

  it('everyEventIsRealtimeEvent: each event has a name, an integer timestamp, participantId, a string or null connectionId, an object of data', () => {
    everyEventIsRealtimeEvent([EVENT, { ...EVENT, connectionId: 'c-1', data: { text: 'hi' } }]);
    everyEventIsRealtimeEvent([]);
    fails(() => everyEventIsRealtimeEvent([EVENT, { ...EVENT, data: [] }]), /1 of 2 events break the Realtime event shape/);
    fails(() => everyEventIsRealtimeEvent([{ ...EVENT, timestamp: '1717200000000' }]), /1 of 1 events/);
    fails(() => everyEventIsRealtimeEvent([{ ...EVENT, connectionId: undefined }]), /1 of 1 events/);
  });
});
