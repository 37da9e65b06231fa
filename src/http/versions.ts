import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { isAdminRole, seesAllOrganisations } from '../../domain/access';
import { recordAsOf, versionsOf, type RecordFields, type Version, type VersionedRecordType } from '../../domain/versions';
import type { AsOfRecord } from '../../contracts/answers';
import { AS_OF_MESSAGE, asOfQuery, versionsAnswer as versionsAnswerSchema, type VersionView } from '../../contracts/versions';
import { personNames, orderNumbers } from '../../projections/versions';
import { readBatch } from '../../platform/readBatch';
import { HttpError } from '../plugins/errors';
import type { Services } from '../../platform/services';

/**
 * Versions and `?asOf=` for every record type with a decider: the record's own stream folded with its
 * module's `evolve` (domain/versions.ts). The module's route checks first that the caller may read the
 * record today; here the organisation of the folded record is checked too, so a record never shows
 * what another organisation held at any time.
 */

export { AS_OF_MESSAGE, asOfQuery, type VersionView };

type Deps = Pick<Services, 'store' | 'reads'>;
type Reader = Pick<FastifyRequest['principal'], 'role' | 'organisationId'>;

/** "a project", for messages. */
const named = (type: VersionedRecordType) => `${/^[aeiou]/i.test(type.label) ? 'an' : 'a'} ${type.label.toLowerCase()}`;

async function eventsOf(services: Deps, type: VersionedRecordType, id: string) {
  return services.store.readStream(type.decider.streamId(id));
}

/** Whether the caller may see the record in this state: its organisation then must be the caller's. */
function visibleTo<State>(type: VersionedRecordType<State>, state: State, reader: Reader): boolean {
  if (!type.organisationOf || seesAllOrganisations(reader.role)) return true;
  return type.organisationOf(state) === reader.organisationId;
}

/** Fields that name a person (an account id): others than administrators read the person's name there. */
const PEOPLE_FIELDS = new Set(['placed_by', 'submitted_by', 'assigned_to', 'created_by', 'user_id', 'parent_user_id', 'decided_by', 'team']);
/** Internal identifiers and stored file names: shown to administrators only. */
const isInternal = (field: string) => field === 'id' || field.endsWith('_id') || field === 'boq_file';

const idsIn = (value: unknown): string[] =>
  typeof value === 'string' ? [value] : Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];

/** A nested list (order lines, milestones, allocations) without its internal ids. */
function withoutIds(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutIds);
  if (value && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value)
        .filter(([key]) => !isInternal(key))
        .map(([key, inner]) => [key, withoutIds(inner)]),
    );
  return value;
}

/**
 * How a non-administrator reads a record's fields: people by name, linked orders by number, no
 * internal ids and no stored file names (a BoQ reads "Attached"). Administrators read the fields as they are.
 * `alsoNamed` are accounts whose names the caller needs besides (a version's author): every name is read in
 * the same statement.
 */
async function readableFor(
  services: Deps,
  reader: Reader,
  records: RecordFields[],
  alsoNamed: ReadonlyArray<string | null> = [],
): Promise<{ readable: (fields: RecordFields | null) => RecordFields | null; names: Map<string, string> }> {
  const admin = isAdminRole(reader.role);
  const people = admin ? [] : records.flatMap((fields) => [...PEOPLE_FIELDS].flatMap((field) => idsIn(fields[field])));
  const orderIds = admin ? [] : [...new Set(records.flatMap((fields) => idsIn(fields.orders)))];
  // The names and the order numbers leave together (readBatch): one round trip.
  const reads = readBatch(services.reads);
  const [names, numbers] = await Promise.all([personNames(reads, [...alsoNamed, ...people]), orderNumbers(reads, orderIds)]);
  if (admin) return { readable: (fields) => fields, names };
  const person = (id: unknown) => (typeof id === 'string' ? (names.get(id) ?? 'a removed account') : id);
  const readable = (fields: RecordFields | null) => {
    if (!fields) return fields;
    const shown: RecordFields = {};
    for (const [field, value] of Object.entries(fields)) {
      if (field === 'boq_file') shown.boq_file = value ? 'Attached' : null;
      else if (PEOPLE_FIELDS.has(field)) shown[field] = Array.isArray(value) ? value.map(person) : person(value);
      else if (field === 'orders' && Array.isArray(value)) shown.orders = value.map((id) => numbers.get(String(id)) ?? 'an order');
      else if (!isInternal(field)) shown[field] = withoutIds(value);
    }
    return shown;
  };
  return { readable, names };
}

/** The record's versions, oldest first, each with who made it (name and role), when, and what it changed. */
export async function versionsAnswer<State>(
  services: Deps,
  type: VersionedRecordType<State>,
  id: string,
  reader: Reader,
  notFound: string,
): Promise<VersionView[]> {
  const events = await eventsOf(services, type as VersionedRecordType, id);
  if (!events.length) throw new HttpError(404, 'NOT_FOUND', notFound);
  let state = type.decider.initialState();
  for (const event of events) {
    state = type.decider.evolve(state, event as never);
    if (type.present(state) && !visibleTo(type, state, reader)) throw new HttpError(404, 'NOT_FOUND', notFound);
  }
  const versions = versionsOf(type, events);
  const values = versions.flatMap((version) => version.changes.flatMap((change) => [{ [change.field]: change.before }, { [change.field]: change.after }]));
  const { readable, names } = await readableFor(
    services,
    reader,
    values,
    events.map((event) => event.metadata.actorId),
  );
  const shownChange = (change: Version['changes'][number]) => {
    const before = readable({ [change.field]: change.before });
    const after = readable({ [change.field]: change.after });
    return before && after && change.field in before ? { field: change.field, before: before[change.field], after: after[change.field] } : null;
  };
  return versions.map((version) => ({
    ...version,
    changes: version.changes.map(shownChange).filter((change): change is NonNullable<typeof change> => change !== null),
    actor_name: version.actor_id ? (names.get(version.actor_id) ?? null) : null,
  }));
}

/** The record as it was at `asOf`, with the version it was at then; 404 when it did not exist then. */
export async function asOfAnswer<State>(
  services: Deps,
  type: VersionedRecordType<State>,
  id: string,
  asOf: string,
  reader: Reader,
  notFound: string,
): Promise<AsOfRecord> {
  const events = await eventsOf(services, type as VersionedRecordType, id);
  const moment = new Date(asOf);
  const found = recordAsOf(type, events, moment);
  if (!found) {
    const created = events[0]?.metadata.occurredAt;
    const when = moment.toISOString();
    throw new HttpError(
      404,
      'NOT_FOUND_AT_THAT_TIME',
      created && Date.parse(created) > moment.getTime()
        ? `This ${type.label.toLowerCase()} did not exist yet on ${when}: it was created on ${created}.`
        : `There was no such ${type.label.toLowerCase()} on ${when}.`,
    );
  }
  if (!visibleTo(type, found.state, reader)) throw new HttpError(404, 'NOT_FOUND', notFound);
  const { readable } = await readableFor(services, reader, [found.record]);
  return { ...readable(found.record), as_of: moment.toISOString(), version: found.revision, version_time: found.occurred_at };
}

export interface VersionsRouteOptions<State> {
  /** The record's read route without `/:id`, e.g. `/orders`. */
  path: string;
  type: VersionedRecordType<State>;
  params: z.ZodType<{ id: string }>;
  /**
   * The module's own check that the caller may read the record today (404 otherwise); answers the
   * record's id (an order may be addressed by its number).
   */
  visible: (request: FastifyRequest, id: string) => Promise<string>;
  notFound: string;
}

/** `GET <path>/:id/versions`, with the module's visibility check. */
export function versionsRoute<State>(parent: FastifyInstance, services: Deps, options: VersionsRouteOptions<State>): void {
  const app = parent.withTypeProvider<ZodTypeProvider>();
  app.get(
    `${options.path}/:id/versions`,
    {
      schema: {
        tags: ['versions'],
        summary: `The versions of ${named(options.type as VersionedRecordType)}: who changed what and when (field before → after)`,
        params: options.params,
        response: { 200: versionsAnswerSchema },
      },
    },
    async (request) => {
      const id = await options.visible(request, request.params.id);
      return { success: true as const, data: await versionsAnswer(services, options.type, id, request.principal, options.notFound) };
    },
  );
}
