import { z } from 'zod';
import { MAIL_AUDIENCES, NOTIFICATION_KINDS } from '../domain/settings/notifications';
import { SETTINGS_MESSAGES } from '../domain/settings/settings';

/**
 * System Settings: the support contact, which notification events are e-mailed to whom, the e-mail
 * templates, a setting's history, the access-control table and the event-log backup. The security
 * policy's schemas are identity's (`securityPolicyBody`, `securityPolicyAnswer`).
 *
 * Routes (all under /api; administrators, but GET /settings/support-contact for everyone signed in):
 * - GET/PUT /settings/support-contact           `supportContactBody` → `supportContactAnswer`
 * - GET/PUT /settings/notifications             `notificationsBody` → `notificationTableAnswer`
 * - GET     /settings/email-templates           `templateListAnswer`
 * - PUT/DELETE /settings/email-templates/:kind  `templateBody` → `templateListAnswer`
 * - GET     /settings/history?setting=          `settingHistoryAnswer`
 * - GET     /settings/access-control            `accessControlAnswer`
 * - GET     /settings/backup                    `backupAnswer`
 * - GET     /settings/backup/events             the event log as JSON lines (application/x-ndjson)
 */

const saved = { success: z.literal(true), message: z.string().optional() };

export const supportContactFields = {
  phone: z.string().max(40, 'Phone may have at most 40 characters.'),
  email: z.string().max(200),
  hours: z.string().max(200, 'Hours may have at most 200 characters.'),
};
export const supportContactSchema = z.object({ phone: z.string(), email: z.string(), hours: z.string() });
export type SupportContactView = z.infer<typeof supportContactSchema>;
/** null until an administrator sets it. */
export const supportContactAnswer = z.object({ ...saved, data: supportContactSchema.nullable() });
export type SupportContactAnswer = z.infer<typeof supportContactAnswer>;

export const notificationsBody = z
  .object({ mail: z.partialRecord(z.enum(NOTIFICATION_KINDS), z.array(z.enum(MAIL_AUDIENCES)).max(MAIL_AUDIENCES.length)) })
  .strict()
  .meta({ example: { mail: { 'ticket-opened': ['administrators', 'support'], 'order-status-changed': ['partners', 'distributors'] } } });

const notificationEvent = { kind: z.string(), label: z.string(), group: z.string() };
export const notificationTable = z.object({
  audiences: z.array(z.object({ id: z.enum(MAIL_AUDIENCES), label: z.string() })),
  events: z.array(z.object({ ...notificationEvent, audiences: z.array(z.enum(MAIL_AUDIENCES)), configured: z.boolean() })),
});
export type NotificationTable = z.infer<typeof notificationTable>;
export const notificationTableAnswer = z.object({ ...saved, data: notificationTable });

export const kindParam = z.object({ kind: z.enum(NOTIFICATION_KINDS, { error: SETTINGS_MESSAGES.unknownEvent }) }).strict();

export const templateBody = z
  .object({ subject: z.string().max(200, SETTINGS_MESSAGES.subjectTooLong), body: z.string().max(5000, SETTINGS_MESSAGES.bodyTooLong) })
  .strict()
  .meta({ example: { subject: '[PartnerHub] {{title}}', body: 'Hello {{recipient_name}},\n\n{{message}}\n\n{{link}}' } });

export const templateList = z.object({
  placeholders: z.array(z.object({ name: z.string(), description: z.string() })),
  standard: z.object({ subject: z.string(), body: z.string() }),
  templates: z.array(z.object({ ...notificationEvent, subject: z.string(), body: z.string(), customised: z.boolean(), updated_at: z.string().nullable() })),
});
export type TemplateList = z.infer<typeof templateList>;
export const templateListAnswer = z.object({ ...saved, data: templateList });

export const settingChange = z.object({
  type: z.string(),
  /** The event's data: each setting's own shape. */
  value: z.record(z.string(), z.unknown()),
  changed_at: z.string(),
  changed_by: z.string().nullable(),
  changed_by_name: z.string().nullable(),
});
export type SettingChange = z.infer<typeof settingChange>;
export const settingHistoryAnswer = z.object({ success: z.literal(true), data: z.object({ setting: z.string(), history: z.array(settingChange) }) });

const namedPermission = z.object({ name: z.string(), label: z.string() });
export const accessControl = z.object({
  roles: z.array(z.object({ role: z.string(), label: z.string(), permissions: z.array(namedPermission) })),
  integration: z.object({ permissions: z.array(namedPermission) }),
});
export type AccessControl = z.infer<typeof accessControl>;
export const accessControlAnswer = z.object({ success: z.literal(true), data: accessControl });

export const eventLogSummary = z.object({
  events: z.number().int(),
  streams: z.number().int(),
  first_event_at: z.string().nullable(),
  last_event_at: z.string().nullable(),
});
export type EventLogSummary = z.infer<typeof eventLogSummary>;
export const backupAnswer = z.object({ success: z.literal(true), data: eventLogSummary });
