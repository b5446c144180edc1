/**
 * The fault catalogue: named deviations from the interface as written, each switched on from
 * outside (`--fault NAME`, or `apply` on the options of buildApp) and each declaring the
 * requirements of spec/requirements.yaml it violates. scripts/maintainer/self-verify.ts proves that the suite
 * fails on every fault, with a failing test that cites one of those requirements.
 *
 * The faults live by area, as reference/plugins/ does (auth.ts, login.ts, ... and pagination.ts,
 * formats.ts, errors.ts, input.ts for what every operation shares, canary.ts for check:canary); this
 * file only puts them in the catalogue's order, which `--list-faults` and self-verification follow.
 */
import * as auth from './auth.ts';
import * as canary from './canary.ts';
import * as errors from './errors.ts';
import * as formats from './formats.ts';
import * as groups from './groups.ts';
import * as input from './input.ts';
import * as login from './login.ts';
import * as meetings from './meetings.ts';
import * as pagination from './pagination.ts';
import * as participants from './participants.ts';
import * as realtime from './realtime.ts';
import * as recordings from './recordings.ts';
import * as security from './security.ts';
import type { Fault, FaultDescription } from './tools.ts';
import * as transcripts from './transcripts.ts';

export type { Fault, FaultDescription } from './tools.ts';

export const FAULTS: readonly Fault[] = [
  ...login.faults,
  ...auth.unchecked,
  ...auth.credentialForms,
  ...errors.faults,
  ...formats.contentTypes,
  ...pagination.faults,

  // Fixed points of the open choices (`fixedPoints`): each makes an open choice of the interface in a
  // way no reading allows. It breaks the MUST that holds whatever the target chooses there
  // (docs/level-audit.md), and nothing else.
  ...pagination.fixedPoints,
  ...groups.fixedPoints,
  ...participants.fixedPoints,
  ...recordings.fixedPoints,
  ...transcripts.fixedPoints,
  ...auth.fixedPoints,

  // Every MUST has a fault (`narrow`): each breaks what one MUST states (and declares a second
  // requirement only where it breaks that one too), so that the checks of its requirement, and as few
  // others as possible, can fail. The narrow kinds (one operation, one field of one item, one page,
  // one header spelling, one environment, one answer in N, only after a write, the Nth item of a long
  // list) are marked as such where they are defined.
  ...auth.narrow,
  ...participants.narrow,
  ...recordings.narrow,
  ...transcripts.narrow,
  ...security.narrow,
  ...meetings.narrow,
  ...realtime.narrow,
  ...pagination.narrow,

  ...groups.faults,
  ...participants.faults,
  ...recordings.faults,
  ...transcripts.faults,
  ...formats.timestamps,
  ...security.faults,
  ...meetings.faults,
  ...realtime.faults,
  ...input.faults,
  ...canary.faults,
];

export function listFaults(): FaultDescription[] {
  return FAULTS.map(({ name, description, requirements }) => ({ name, description, requirements }));
}

export function findFault(name: string): Fault | undefined {
  return FAULTS.find((candidate) => candidate.name === name);
}
