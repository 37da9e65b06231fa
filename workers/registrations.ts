import type { Job, Processor, Queue } from 'bullmq';
import type { UserEvent } from '../domain/identity/users';
import type { RecordedEvent } from '../platform/eventstore';
import type { Services } from '../platform/services';
import { activeAdminIds, selfRegisteredShortlyBefore, selfRegistrationsBetween, type SelfRegistration } from '../projections/users';
import { causeOf, noticeJob, type NoticeContent, type NotificationJobData } from './notifications';
import { QUEUES, type JobRequest } from '../platform/queues';
import type { Reaction } from './reactor';

/**
 * How admins hear of partners who register themselves, so that a burst of sign-ups does not send every
 * admin one notice per sign-up:
 * - a self-registration with no other in the window before it is announced at once;
 * - the clock is cut into windows of REGISTRATION_DIGEST_WINDOW_SECONDS (aligned to the epoch); the
 *   self-registrations of a window not announced at once reach each admin as one digest when it ends.
 * So an admin gets at most one notice at once and one digest per window. Every job and notification
 * id names the window (never the event that happened to come first), so a replay of the log, or a
 * job run again, sends nothing twice.
 */

type Registered = RecordedEvent<'UserRegistered.v1', Extract<UserEvent, { type: 'UserRegistered.v1' }>['data']>;

export const REGISTRATION_DIGEST_JOB = 'partner-registration-digest';
/** The digest waits this long past its window, so a registration decided just before the end is in the log when it is read. */
const DIGEST_GRACE_MS = 2_000;
/** How many addresses a digest lists before it says "and N more". */
const LISTED = 10;

export interface RegistrationWindow {
  seconds: number;
  index: number;
}

const windowMs = (window: RegistrationWindow) => window.seconds * 1000;
export const windowOf = (at: Date, seconds: number): RegistrationWindow => ({ seconds, index: Math.floor(at.getTime() / (seconds * 1000)) });
const windowStart = (window: RegistrationWindow) => new Date(window.index * windowMs(window));
const windowEnd = (window: RegistrationWindow) => new Date((window.index + 1) * windowMs(window));
/** The window's name in job ids: its length and index (job ids may not contain ':'). */
const windowKey = (window: RegistrationWindow) => `${window.seconds}s.${window.index}`;

type Registration = SelfRegistration;

const applicantOf = (r: { email: string; company_name: string | null; full_name: string }) =>
  r.company_name ? `${r.company_name} (${r.email})` : r.full_name && r.full_name !== r.email ? `${r.full_name} (${r.email})` : r.email;

const singleNotice = (registration: Registration): NoticeContent => ({
  kind: 'partner-registered',
  title: 'New partner registration',
  body: `${applicantOf(registration)} registered as a partner and is waiting for approval.`,
  link: '/adminpanel',
});

export function digestNotice(registrations: Registration[]): NoticeContent {
  if (registrations.length === 1) return singleNotice(registrations[0]);
  const listed = registrations.slice(0, LISTED).map((r) => r.email);
  const more = registrations.length - listed.length;
  return {
    kind: 'partner-registrations',
    title: `${registrations.length} new partner registrations`,
    body: `${registrations.length} new partner registrations: ${listed.join(', ')}${more > 0 ? `, and ${more} more` : ''}. They are waiting for approval.`,
    link: '/adminpanel',
  };
}

export interface RegistrationDigestJobData {
  window: RegistrationWindow;
  /** The registration that asked for the digest (any of the window's); its ids go into the notices' metadata. */
  cause: NotificationJobData['cause'];
}

/** Each self-registration: a notice at once when it follows a quiet spell, and in any case its window's digest, due when the window ends. */
export const announcePartnerRegistration: Reaction = async (recorded, context) => {
  const event = recorded as Registered;
  if (event.data.selfRegistered !== true) return [];
  await context.readModelsInclude(event);
  const seconds = context.config.REGISTRATION_DIGEST_WINDOW_SECONDS;
  const registration: Registration = {
    id: event.data.userId,
    email: event.data.email,
    full_name: event.data.fullName,
    company_name: event.data.companyName,
    created_at: new Date(event.metadata.occurredAt),
  };
  const window = windowOf(registration.created_at, seconds);
  const digest: JobRequest = {
    queue: QUEUES.registrationDigests,
    name: REGISTRATION_DIGEST_JOB,
    id: `${REGISTRATION_DIGEST_JOB}.${windowKey(window)}`,
    data: { window, cause: causeOf(event) } satisfies RegistrationDigestJobData,
    delayMs: Math.max(0, windowEnd(window).getTime() + DIGEST_GRACE_MS - Date.now()),
  };
  // Announced at once only after a quiet spell; otherwise the window's digest tells.
  if (await selfRegisteredShortlyBefore(context.pool, registration, seconds)) return [digest];
  // Only admins who already existed then, so a replay tells no admin who joined since.
  const admins = await activeAdminIds(context.pool, event.metadata.occurredAt);
  const notices = admins.map((admin) => noticeJob(causeOf(event), `partner-registered.${windowKey(window)}.${admin}`, admin, singleNotice(registration)));
  return [...notices, digest];
};

export type RegistrationDigestOutcome = { registrations: number; admins: number };

/**
 * Gathers the window's self-registrations not announced at once and queues one notice per admin.
 * Reads only once the read models hold the whole log, so every registration of the window is seen.
 */
export async function sendRegistrationDigest(
  services: Pick<Services, 'pool' | 'store' | 'watcher'>,
  notifications: Pick<Queue, 'addBulk'>,
  data: RegistrationDigestJobData,
): Promise<RegistrationDigestOutcome> {
  const head = await services.store.headPosition();
  if (head && !(await services.watcher.waitFor(head))) throw new Error('The read models have not reached the end of the log yet; the digest will be retried.');
  const rows = await selfRegistrationsBetween(services.pool, windowStart(data.window), windowEnd(data.window));
  // The first of the window, when nobody registered in the window's length before it, was announced at once.
  const registrations = rows.length > 0 && !(await selfRegisteredShortlyBefore(services.pool, rows[0], data.window.seconds)) ? rows.slice(1) : rows;
  if (registrations.length === 0) return { registrations: 0, admins: 0 };
  // Only admins who already existed then, so a replay tells no admin who joined since about older sign-ups.
  const admins = await activeAdminIds(services.pool, registrations[0].created_at);
  const content = digestNotice(registrations);
  const jobs = admins.map((admin) => noticeJob(data.cause, `${REGISTRATION_DIGEST_JOB}.${windowKey(data.window)}.${admin}`, admin, content));
  await notifications.addBulk(jobs.map((job) => ({ name: job.name, data: job.data, opts: { jobId: job.id } })));
  return { registrations: registrations.length, admins: admins.length };
}

export function registrationDigestProcessor(
  services: Pick<Services, 'pool' | 'store' | 'watcher'>,
  notifications: Pick<Queue, 'addBulk'>,
): Processor<RegistrationDigestJobData, RegistrationDigestOutcome> {
  return (job: Job<RegistrationDigestJobData>) => sendRegistrationDigest(services, notifications, job.data);
}
