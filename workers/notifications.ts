import type { Job, Processor } from 'bullmq';
import nodemailer from 'nodemailer';
import { notifications, type NotificationContent } from '../domain/notifications/notifications';
import { deterministicUuid, handleCommand } from '../platform/commands/commandHandler';
import { metadataCausedBy } from '../platform/commands/dispatch';
import type { Config } from '../platform/config';
import type { RecordedEvent } from '../platform/eventstore';
import type { Services } from '../platform/services';
import { findUser } from '../projections/users';
import { emailTemplateFor, notificationSettings } from '../projections/settings';
import { DEFAULT_EMAIL_TEMPLATE, mailsTo, renderTemplate, type EmailTemplate } from '../domain/settings/notifications';
import { QUEUES, reactionJobId, type JobRequest } from '../platform/queues';

/** Jobs act as the system, on behalf of the event that caused them. */
export const SYSTEM_ACTOR = { id: null, role: 'system' } as const;

export interface NotificationJobData extends Omit<NotificationContent, 'notificationId'> {
  notificationId: string;
  /** The event the notification reacts to: its id and correlation id go into the metadata, its position tells "not projected yet" from "gone". */
  cause: { eventId: string; correlationId: string; position: { commit: string; prepare: string } };
}

/** The job that tells `recipientId` about `event`. Its notification id is derived from the job id, so a job run twice sends one notification. */
export function notificationJob(event: RecordedEvent, recipientId: string, content: NoticeContent): JobRequest {
  return noticeJob(causeOf(event), reactionJobId(event.id, content.kind, recipientId), recipientId, content);
}

export type NoticeContent = Pick<NotificationContent, 'kind' | 'title' | 'body' | 'link'>;

export const causeOf = (event: RecordedEvent): NotificationJobData['cause'] => ({
  eventId: event.id,
  correlationId: event.metadata.correlationId,
  position: { commit: event.position.commit.toString(), prepare: event.position.prepare.toString() },
});

/** A notification job under a given id, for a notice that stands for more than one event (a digest names what it covers instead). */
export function noticeJob(cause: NotificationJobData['cause'], id: string, recipientId: string, content: NoticeContent): JobRequest {
  if (id.includes(':')) throw new Error(`A job id may not contain ':' (${id}).`);
  const data: NotificationJobData = { notificationId: deterministicUuid(`notification:${id}`), userId: recipientId, ...content, cause };
  return { queue: QUEUES.notifications, name: content.kind, id, data };
}

// ---- e-mail ----

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
  close(): void;
}

/** An SMTP mailer when SMTP_URL is set; without it, notifications stay in-app only. */
export function createMailer(config: Pick<Config, 'SMTP_URL' | 'MAIL_FROM'>): Mailer | undefined {
  if (!config.SMTP_URL) return undefined;
  const transport = nodemailer.createTransport(config.SMTP_URL);
  return {
    async send(message) {
      await transport.sendMail({ from: config.MAIL_FROM, ...message });
    },
    close: () => transport.close(),
  };
}

/** Set once an e-mail went out, so a retried or replayed job does not send it again. Kept for good: a replay can come at any time. */
export const mailSentKey = (config: Pick<Config, 'REDIS_PREFIX'>, jobId: string) => `${config.REDIS_PREFIX}:mail-sent:${jobId}`;

export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * The e-mail of a notification, written with the event's template from System Settings (the
 * standard wording when none was written). The HTML part is the same text, escaped, with the
 * record's address as a link.
 */
export function notificationMail(
  recipient: { email: string; full_name: string },
  content: Pick<NotificationContent, 'title' | 'body' | 'link'>,
  publicUrl: string | undefined,
  template: EmailTemplate = DEFAULT_EMAIL_TEMPLATE,
): MailMessage {
  const url = content.link && publicUrl ? new URL(content.link, publicUrl).toString() : '';
  const mail = renderTemplate(template, { recipient_name: recipient.full_name, title: content.title, message: content.body, link: url, portal: 'PartnerHub' });
  const html = mail.body
    .split(/\n{2,}/)
    .map((paragraph) => {
      const escaped = escapeHtml(paragraph).replace(/\n/g, '<br>');
      return `<p>${url ? escaped.split(escapeHtml(url)).join(`<a href="${escapeHtml(url)}">${escapeHtml(url)}</a>`) : escaped}</p>`;
    })
    .join('\n');
  return { to: recipient.email, subject: mail.subject, text: `${mail.body}\n`, html };
}

// ---- processor ----

export type NotificationOutcome = { notified: boolean; mailed: 'sent' | 'already-sent' | 'no-smtp' | 'recipient-gone' | 'not-chosen' };

/**
 * Sends the in-app notification (a no-op when it exists), then the e-mail unless one already went
 * out for this job. A failure throws, so BullMQ retries the job with backoff.
 */
export function notificationProcessor(
  services: Pick<Services, 'store' | 'pool' | 'redis' | 'watcher' | 'config'>,
  mailer: Mailer | undefined,
): Processor<NotificationJobData, NotificationOutcome> {
  return async (job: Job<NotificationJobData>) => {
    const { notificationId, userId, kind, title, body, link, cause } = job.data;
    const jobId = job.id ?? notificationId;
    const metadata = metadataCausedBy({ id: cause.eventId, metadata: { correlationId: cause.correlationId } }, SYSTEM_ACTOR);
    const sent = await handleCommand(
      services.store,
      notifications,
      notificationId,
      { type: 'SendNotification', notificationId, userId, kind, title, body, link },
      metadata,
      { idempotencyKey: `job:${jobId}` },
    );
    const notified = sent.events.length > 0;
    if (!mailer) return { notified, mailed: 'no-smtp' };

    const sentKey = mailSentKey(services.config, jobId);
    if (await services.redis.exists(sentKey)) return { notified, mailed: 'already-sent' };
    const recipient = await findUser(services.pool, userId);
    if (!recipient) {
      const position = { commit: BigInt(cause.position.commit), prepare: BigInt(cause.position.prepare) };
      if (!(await services.watcher.waitFor(position, 1_000))) throw new Error(`User ${userId} is not in the read models yet; the e-mail will be retried.`);
      // The read models are past the event that caused the job and the user is not there: the account was deleted since.
      return { notified, mailed: 'recipient-gone' };
    }
    // System Settings decide which events are e-mailed to whom; the in-app notification is sent regardless.
    if (!mailsTo(await notificationSettings(services.pool), kind, recipient.role)) return { notified, mailed: 'not-chosen' };
    await mailer.send(notificationMail(recipient, { title, body, link }, services.config.PUBLIC_URL, await emailTemplateFor(services.pool, kind)));
    await services.redis.set(sentKey, new Date().toISOString(), 'NX');
    return { notified, mailed: 'sent' };
  };
}
