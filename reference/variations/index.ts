/**
 * Allowed variations: the mirror of the fault catalogue. Each switches the reference to another
 * choice that the interface leaves open (a point it does not show, the other side of
 * a documented inconsistency, a deployment detail it does not fix) and keeps it conforming, so that
 * the conformance suite must pass on each of them as on the plain reference. Like faults they are
 * switched on from outside (`--variation NAME`, or `applyVariations` on the options of buildApp /
 * buildServers) through the extension points of reference/options.ts; the normal code carries no
 * hook for them.
 *
 * `other-choices` turns on every variation of the catalogue that combines with the others (one of
 * each mutually exclusive group) together with every documented variant's other form.
 *
 * The variations live by area, as reference/plugins/ does (participants.ts, recordings.ts, ... and
 * addresses.ts, data.ts, errors.ts, answers.ts, transport.ts for what every operation shares); this
 * file puts them in the catalogue's order, which is the order they are applied in.
 */
import type { ReferenceOptions } from '../options.ts';
import * as addresses from './addresses.ts';
import * as answers from './answers.ts';
import * as auth from './auth.ts';
import * as data from './data.ts';
import * as errors from './errors.ts';
import * as groups from './groups.ts';
import * as login from './login.ts';
import * as meetings from './meetings.ts';
import * as pagination from './pagination.ts';
import * as participants from './participants.ts';
import * as realtime from './realtime.ts';
import * as recordings from './recordings.ts';
import * as security from './security.ts';
import { withVariants, type Variation, type VariationDescription } from './tools.ts';
import * as transport from './transport.ts';
import * as transcripts from './transcripts.ts';

export type { Variation, VariationDescription } from './tools.ts';

/**
 * In application order: rewrites of bodies before rewrites of error shapes, and the transport
 * variations (charset, compression, chunking) last, since they change the bytes the others read.
 */
const catalogue: readonly Variation[] = [
  ...addresses.variations,
  ...data.variations,
  // Documented inconsistencies.
  ...realtime.variations,
  ...security.paths,
  ...participants.variations,
  // Unknown ids.
  ...groups.variations,
  // Lists and filters.
  ...pagination.variations,
  ...recordings.variations,
  ...transcripts.variations,
  ...meetings.variations,
  // Credentials.
  ...auth.variations,
  ...login.variations,
  ...security.keys,
  ...errors.variations,
  ...answers.variations,
  ...transport.variations,
];

/** The documented variants whose other form `other-choices` also takes (reference/variants.ts). */
const OTHER_CHOICES_VARIANTS = [
  'recordings-envelope',
  'channel-participants',
  'channel-without-id',
  'error-in-401',
  'meetingstats-paginated-records',
  'participant-channel-room-id',
] as const;

/**
 * The documented variant whose other form clashes with other-choices (security-key-participants-path-only
 * stops serving /security): the alternates declare it, so that every variant's other form is in one
 * combination. Their security-key-participants-path-400 then stops serving /security as well (it
 * certifies the /participants form with a 400 at /security), so the form serving both paths runs
 * alone only, with --variations.
 */
const ALTERNATES_VARIANTS = ['security-path-participants'] as const;

/** One of each exclusive group goes into other-choices (the first listed), and no contested variation. */
const OTHER_CHOICES_LEFT_OUT = new Set([
  'pages-from-zero',
  'channel-participants-both',
  'security-key-participants-path-400',
  'upsert-answers-no-body',
  'take-unbounded',
  'recordings-filters-union',
  'transcripts-environment-required',
  'security-key-x25519',
  'unknown-id-400',
  'content-type-charset-upper',
]);

export const OTHER_CHOICES = 'other-choices';

/** Left out of other-choices because contested, not because another variation took its point: not in the alternates either. */
const CONTESTED = new Set(['pages-from-zero']);

/**
 * The other side of what other-choices left out: the second of each exclusive group, and the
 * variations that clash with a documented variant's other form. Between the two combinations every
 * uncontested variation of the catalogue is switched on.
 */
export const OTHER_CHOICES_ALTERNATES = 'other-choices-alternates';

function otherChoicesMembers(): Variation[] {
  return catalogue.filter((variation) => !OTHER_CHOICES_LEFT_OUT.has(variation.name));
}

function alternatesMembers(): Variation[] {
  return catalogue.filter((variation) => OTHER_CHOICES_LEFT_OUT.has(variation.name) && !CONTESTED.has(variation.name));
}

/** The combinations of the catalogue, by name, with their members. */
const COMBINATIONS: Readonly<Record<string, () => Variation[]>> = { [OTHER_CHOICES]: otherChoicesMembers, [OTHER_CHOICES_ALTERNATES]: alternatesMembers };

// ---------------------------------------------------------------- lookup

export class UnknownVariationError extends Error {
  constructor(name: string) {
    super(`unknown variation "${name}"; see --list-variations (${catalogue.length} variations, ${OTHER_CHOICES} and ${OTHER_CHOICES_ALTERNATES})`);
    this.name = 'UnknownVariationError';
  }
}

export function listVariations(): (VariationDescription & { members?: string[]; variants?: string[] })[] {
  const described = catalogue.map(({ name, description, basis, requirement, excludes }) => ({
    name,
    description,
    basis,
    ...(requirement === undefined ? {} : { requirement }),
    ...(excludes === undefined ? {} : { excludes }),
  }));
  return [
    ...described,
    {
      name: OTHER_CHOICES,
      description:
        'Every variation that combines with the others (the first of each exclusive group), with the other form of every documented variant but security-path-participants (which its security-key-participants-path-only excludes; the alternates take it).',
      basis: 'Issue 12: a second in-repo conforming configuration making the other allowed choice on every point that can be switched.',
      members: otherChoicesMembers().map((variation) => variation.name),
      variants: [...OTHER_CHOICES_VARIANTS],
    },
    {
      name: OTHER_CHOICES_ALTERNATES,
      description: `Every variation that ${OTHER_CHOICES} leaves out for another choice on its point (the other side of each exclusive group), with the other form of the documented variant ${OTHER_CHOICES} cannot take (${ALTERNATES_VARIANTS.join(', ')}) and the other variants in their first form; ${[...CONTESTED].join(', ')} stays out as contested.`,
      basis: `With ${OTHER_CHOICES}, every uncontested variation of the catalogue and every documented variant's other form is certified in one of two combined runs.`,
      members: alternatesMembers().map((variation) => variation.name),
      variants: [...ALTERNATES_VARIANTS],
    },
  ];
}

export function isVariationName(name: string): boolean {
  return name in COMBINATIONS || catalogue.some((variation) => variation.name === name);
}

/** The variations `names` switch on, in catalogue order (other-choices expanded); throws on an unknown or exclusive pair. */
function selected(names: readonly string[]): Variation[] {
  for (const name of names) if (!isVariationName(name)) throw new UnknownVariationError(name);
  const wanted = new Set(names.flatMap((name) => COMBINATIONS[name]?.().map((variation) => variation.name) ?? [name]));
  const chosen = catalogue.filter((variation) => wanted.has(variation.name));
  for (const variation of chosen) {
    const clash = (variation.excludes ?? []).find((other) => wanted.has(other));
    if (clash !== undefined) throw new Error(`variations "${variation.name}" and "${clash}" make different choices on the same point`);
  }
  return chosen;
}

/** Throws when a name is unknown or two names make different choices on the same point. */
export function checkVariations(names: readonly string[]): void {
  selected(names);
}

/** The options with the named variations applied (in catalogue order, whatever the order of `names`). */
export function applyVariations(options: ReferenceOptions, names: readonly string[]): ReferenceOptions {
  const variations = selected(names);
  const combinedVariants = [
    ...(names.includes(OTHER_CHOICES) ? OTHER_CHOICES_VARIANTS : []),
    ...(names.includes(OTHER_CHOICES_ALTERNATES) ? ALTERNATES_VARIANTS : []),
  ];
  const withOtherVariants = combinedVariants.length === 0 ? options : withVariants(...combinedVariants)(options);
  return variations.reduce((current, variation) => variation.apply(current), withOtherVariants);
}

/** How the named variations rename the seed's ids; undefined when none does. */
export function variationIdRenaming(names: readonly string[]): ((id: string) => string) | undefined {
  const renames = selected(names).flatMap((variation) => (variation.renameId === undefined ? [] : [variation.renameId]));
  return renames.length === 0 ? undefined : (id) => renames.reduce((current, rename) => rename(current), id);
}
