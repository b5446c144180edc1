import type { Behaviour } from './behaviour.ts';
import type { Group, Participant } from './store.ts';

/** Response shapes shared by more than one plugin; each builds a fresh object from store records. */

export function groupView(group: Group, behaviour: Behaviour): Record<string, unknown> {
  return { id: group.id, name: group.name, createdAt: behaviour.formatTimestamp(group.createdAt) };
}

export function participantView(participant: Participant, behaviour: Behaviour): Record<string, unknown> {
  return {
    id: participant.id,
    name: participant.name,
    email: participant.email,
    avatar: participant.avatar,
    createdAt: behaviour.formatTimestamp(participant.createdAt),
  };
}
