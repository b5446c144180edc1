/**
 * Recordings (listRecordings): the Recording shape in either documented list form, the roomId and
 * meetingId filters, the envelope's paging, the processing -> available transition and the url.
 *
 * Whether a filter is required is not shown (UNS-16): comparisons with the unfiltered list are
 * made when the target answers it, and the filter checks also cross-check the two filters.
 */
import { check, cites, notApplicable, notAssessed, recordExchange, test, watchMargin } from '../fixtures/index.ts';
import type { ApiClient, Discovery, Recording, TargetConfig, TargetVariable } from '../fixtures/index.ts';
import {
  availableWithinDelay,
  defaultPageHolds,
  everyItemHas,
  everyUrlIsAbsoluteHttp,
  limitIsTake,
  noneLeftOut,
  returnsSome,
  sameItems,
  sameTotalOnEveryPage,
  succeeds,
  totalPagesIsCeiling,
  watchSawRecordings,
} from './conditions/index.ts';
import { distinct, readPage, readRecordings, readUnfilteredRecordings } from './support/recordings.ts';
import { settled } from './support/reliance.ts';
import type { RecordingList, RecordingsPagination } from './support/recordings.ts';

/** Rooms or meetings cross-checked per filter test: enough to find a dropped recording, few requests. */
const MAX_CROSS_CHECKS = 3;
/** Allowance for the difference between the target's clock and ours when reading createdAt. */
const CLOCK_SKEW_MS = 60_000;

interface FilterCase {
  field: 'roomId' | 'meetingId';
  other: 'roomId' | 'meetingId';
  noun: string;
  variable: TargetVariable;
  only: string;
  all: string;
}

const FILTERS: readonly FilterCase[] = [
  { field: 'roomId', other: 'meetingId', noun: 'room', variable: 'TARGET_ROOM_ID', only: 'REC-03', all: 'REC-04' },
  { field: 'meetingId', other: 'roomId', noun: 'meeting', variable: 'TARGET_MEETING_ID', only: 'REC-05', all: 'REC-06' },
];

/** The configured id, else the value of a discovered recording (so that the filter has recordings). */
async function filterValue(field: FilterCase['field'], target: TargetConfig, discover: Discovery): Promise<string | undefined> {
  return target.ids[field] ?? (await discover.recordings())?.find((recording) => recording[field] !== undefined)?.[field];
}

/** The unfiltered list when the target answers it, else the recordings of the configured meeting or room. */
async function someRecordings(api: ApiClient, target: TargetConfig, discover: Discovery): Promise<RecordingList | undefined> {
  const unfiltered = await readUnfilteredRecordings(api);
  if (unfiltered !== undefined) return unfiltered;
  const meetingId = await filterValue('meetingId', target, discover);
  return meetingId === undefined ? undefined : readRecordings(api, { meetingId });
}

test(
  'every listed recording carries the Recording fields, with status processing or available',
  cites('REC-01', 'VAR-01'),
  async ({ api, target, discover, observe }) => {
    await check('VAR-01', 'listRecordings answers a bare array or the pagination envelope', async () => {
      const list = (await someRecordings(api, target, discover)) ?? notAssessed('the list without filters was refused', { enable: 'TARGET_MEETING_ID' });
      observe('VAR-01', list.form);
    });
    await check('REC-01', 'every listed recording carries the Recording fields', async () => {
      // The read judges every page against RecordingList, each Recording on REC-01; an empty list would judge nothing.
      const list = (await someRecordings(api, target, discover)) ?? notAssessed('the list without filters was refused', { enable: 'TARGET_MEETING_ID' });
      if (list.items.length === 0) notAssessed('no recording to check', { lacking: 'recordings in the account' });
    });
  },
);

test('every recording url is an absolute http or https URL', cites('REC-02'), async ({ api, target, discover }) => {
  const list = (await someRecordings(api, target, discover)) ?? notAssessed('the list without filters was refused', { enable: 'TARGET_MEETING_ID' });
  if (list.items.length === 0) notAssessed('no recording to check', { lacking: 'recordings in the account' });
  everyUrlIsAbsoluteHttp(list.items);
});

for (const c of FILTERS) {
  test(`filtering recordings by ${c.field} returns only recordings of that ${c.noun}`, cites(c.only), async ({ api, target, discover }) => {
    const value = (await filterValue(c.field, target, discover)) ?? notAssessed(`a ${c.noun} with recordings`, { enable: c.variable });
    const unfiltered = await readUnfilteredRecordings(api);
    if (unfiltered?.complete === true && unfiltered.items.every((recording) => recording[c.field] === value))
      notAssessed(`every recording of the account has ${c.field} ${value}, so an ignored filter would pass`);
    const filtered = await readRecordings(api, { [c.field]: value }, c.only);
    returnsSome(filtered.items, `recordings with ${c.field}=${value}`);
    everyItemHas(
      filtered.items.map((recording) => ({ uuid: recording.uuid, [c.field]: recording[c.field] })),
      c.field,
      value,
      1,
    );
  });

  test(`filtering recordings by ${c.field} returns every recording of that ${c.noun}`, cites(c.all), async ({ api, target, discover }) => {
    const value = (await filterValue(c.field, target, discover)) ?? notAssessed(`a ${c.noun} with recordings`, { enable: c.variable });
    const first = await readRecordings(api, { [c.field]: value }, c.all);
    if (!first.complete) notAssessed(`the ${c.noun} holds more recordings than the pages read`);

    // Recordings of the same room/meeting found through the other filter and the unfiltered list,
    // read before the filter is read again: one created in between is then in the filtered list only.
    const configured = target.ids[c.other];
    const others = new Set([...distinct(first.items, c.other, MAX_CROSS_CHECKS), ...(configured === undefined ? [] : [configured])]);
    const found: Recording[] = [];
    for (const other of others) found.push(...(await readRecordings(api, { [c.other]: other })).items);
    found.push(...((await readUnfilteredRecordings(api))?.items ?? []));
    const expected = found.filter((recording) => recording[c.field] === value);
    returnsSome(expected, `recordings with ${c.field}=${value} found through the other listings`);
    const returned = new Set((await readRecordings(api, { [c.field]: value }, c.all)).items.map((recording) => recording.uuid));
    noneLeftOut(
      [...new Set(expected.filter((recording) => !returned.has(recording.uuid)).map((recording) => recording.uuid))],
      `recordings with ${c.field}=${value} were by the ${c.field} filter`,
    );
  });
}

test('a processing recording becomes available within the stated delay', cites('REC-07'), async ({ recordingWatch, target }) => {
  const meetingId = target.ids.processingMeetingId ?? notAssessed('a meeting whose recording is processing', { enable: 'TARGET_PROCESSING_MEETING_ID' });
  // The worker has been watching the meeting's recordings since it started (fixtures/data/recording-watch.ts),
  // for at most the delay and its margin from then.
  test.setTimeout(target.recordingReadyMs + watchMargin(target.recordingReadyMs) + 30_000);
  const watch = await (recordingWatch ?? notAssessed('a meeting whose recording is processing', { enable: 'TARGET_PROCESSING_MEETING_ID' }));
  test.info().attachments.push(...watch.attachments);
  test.info().annotations.push(...watch.annotations);
  const watched = `meeting ${meetingId}, watched from ${new Date(watch.firstReadAt).toISOString()} in ${watch.reads} read(s)`;
  watchSawRecordings(watch, watched);
  if (watch.processing.length === 0) {
    notAssessed(
      `no recording of meeting ${meetingId} was processing when the watch started (TARGET_PROCESSING_MEETING_ID must name a recording that is still processing when the run starts)`,
    );
  }
  // The recordings ended before the first read, so they must be available within the delay from it.
  availableWithinDelay(watch, watched);
  test.info().annotations.push({
    type: 'note',
    description: `REC-07: available at most ${watch.availableAfterMs ?? '?'} ms after the first read (stated delay ${watch.delayMs} ms)`,
  });
});

test('the url of an available recording answers 2xx', cites('REC-08'), async ({ api, target, discover, request }) => {
  const meetingId = (await filterValue('meetingId', target, discover)) ?? notAssessed('a meeting with recordings', { enable: 'TARGET_MEETING_ID' });
  // Read afresh: the url is temporary and may have expired since discovery. That it is absolute is
  // not stated (REC-02 is a SHOULD): a relative reference is resolved against the list's address.
  const list = await readRecordings(api, { meetingId });
  const base = list.first.request.url;
  const recording =
    list.items.find((item) => item.status === 'available' && typeof item.url === 'string' && URL.canParse(item.url, base)) ??
    notAssessed('an available recording with a url', { enable: 'TARGET_MEETING_ID' });
  const url = new URL(recording.url as string, base);
  const shown = `${url.origin}${url.pathname}`;
  let status: number;
  try {
    // One KiB is enough to show the address works; a server that ignores Range answers 200.
    const response = await request.get(url.href, { headers: { Range: 'bytes=0-1023' }, maxRedirects: 10, failOnStatusCode: false, timeout: target.timeoutMs });
    status = response.status();
    await response.dispose();
    // The recording's own address, not an operation of the document: counted apart in the coverage.
    recordExchange(test.info().annotations, null, status);
  } catch (error) {
    // No answer judged nothing: REC-08 is not assessed (its first line is the cause; the rest is Playwright's call log).
    notAssessed.check(
      `GET ${shown} (the url of recording ${recording.uuid}) got no response: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`,
    );
  }
  succeeds({ status, curl: `GET ${shown} (the url of recording ${recording.uuid}), following redirects` });
});

/**
 * The target's clock when it answered: its Date header, which HTTP/1.1 servers send in whole
 * seconds (so the true time is not earlier), else our clock less an allowance for skew.
 */
function targetNow(list: RecordingList): number {
  const date = Date.parse(list.first.headers['date'] ?? '');
  return Number.isNaN(date) ? Date.now() - CLOCK_SKEW_MS : date;
}

test(
  'recordings created longer ago than the ready delay that are still processing are observed',
  cites('REC-09'),
  async ({ api, target, discover, observe }) => {
    const list = (await someRecordings(api, target, discover)) ?? notAssessed('the list without filters was refused', { enable: 'TARGET_MEETING_ID' });
    if (list.items.length === 0) notAssessed('no recording to check', { lacking: 'recordings in the account' });
    // The delay runs from the end of the recording, which the record does not carry; createdAt may be
    // its start. How many would still be processing if createdAt were the end is what is reported.
    const cutoff = targetNow(list) - target.recordingReadyMs;
    const processing = list.items.filter((recording) => recording.status === 'processing');
    const created = (recording: Recording): number => Date.parse(recording.createdAt ?? '');
    const older = processing.filter((recording) => created(recording) < cutoff);
    observe(
      'REC-09',
      older.length === 0
        ? `no processing recording was created more than the recording delay ago`
        : `processing recordings created more than the recording delay ago`,
      `${older.length} of ${processing.length} processing recordings, delay ${target.recordingReadyMs} ms: ${older.map((recording) => `${recording.uuid} created ${recording.createdAt ?? '?'}`).join(', ') || `${list.items.length} recordings listed`}`,
    );
  },
);

type Envelope = { pagination: RecordingsPagination; data: Recording[] };

/**
 * The first page of the unfiltered list (of the configured room's list when the target refuses the
 * unfiltered one), skipping the test when the target answers with a bare array.
 */
async function envelopeList(api: ApiClient, target: TargetConfig, discover: Discovery): Promise<{ query: Record<string, string>; first: Envelope }> {
  const unfiltered = await readUnfilteredRecordings(api);
  const query: Record<string, string> =
    unfiltered === undefined
      ? { roomId: (await filterValue('roomId', target, discover)) ?? notAssessed('the list without filters was refused', { enable: 'TARGET_ROOM_ID' }) }
      : {};
  const list = unfiltered ?? (await readRecordings(api, query));
  if (list.form === 'bare array') notApplicable('listRecordings answers with a bare array (VAR-01); REC-10 concerns the envelope');
  return { query, first: list.first.json as Envelope };
}

/** Pages are not stated to be numbered from 1 (nor from 0): pagination.page is left to the PAG requirements. */
test('an envelope of recordings fills pagination exactly for the default page', cites('REC-10'), async ({ api, target, discover }) => {
  const { first } = await envelopeList(api, target, discover);
  const { total } = first.pagination;
  if (total === 0) notAssessed('the list holds no recording');
  await check('REC-10', 'pagination.limit is 10 when take is not sent', () => limitIsTake(first.pagination, 10));
  await check('REC-10', 'pagination.totalPages is ceil(total / limit)', () => totalPagesIsCeiling(first.pagination));
  await check('REC-10', 'data holds min(10, total) recordings', () => defaultPageHolds(first.data.length, total));
});

test('an envelope of recordings honours skip and take', cites('REC-10'), async ({ api, target, discover }) => {
  const { query, first } = await envelopeList(api, target, discover);
  if (first.pagination.total < 4) notAssessed(`the list holds ${first.pagination.total} recordings, fewer than the 4 this check pages through`);
  const page = async (skip: number, take: number): Promise<Envelope> => (await readPage(api, { ...query, skip, take }, 'REC-10')).json as Envelope;
  const uuids = (envelope: Envelope): string[] => envelope.data.map((recording) => recording.uuid);
  // The list is live: the two pages are compared once two reads of them agree.
  const [head, second] = await settled(
    () => Promise.all([page(0, 4), page(2, 2)]),
    ([whole, part]) => uuids(part).join() === uuids(whole).slice(2, 4).join() && whole.pagination.total === part.pagination.total,
  );
  const { total } = second.pagination;
  await check('REC-10', 'pagination.limit is the take sent', () => limitIsTake(second.pagination, 2));
  await check('REC-10', 'pagination.total is the same on every page', () => sameTotalOnEveryPage([total], head.pagination.total));
  await check('REC-10', 'pagination.totalPages is ceil(total / limit)', () => totalPagesIsCeiling(second.pagination));
  await check('REC-10', 'skip=2&take=2 holds the third and fourth recordings of skip=0&take=4', () =>
    sameItems(uuids(second), uuids(head).slice(2, 4), 'the recordings of skip=2&take=2, beside the third and fourth of skip=0&take=4'),
  );
});
