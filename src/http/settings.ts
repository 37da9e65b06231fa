import { PassThrough } from 'node:stream';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { DEFAULT_PERMISSIONS_BY_ROLE, PERMISSION_LABELS, ROLE_LABELS, ROLES } from '../../domain/access';
import {
  DEFAULT_EMAIL_TEMPLATE,
  MAIL_AUDIENCE_LABELS,
  MAIL_AUDIENCES,
  NOTIFICATION_EVENTS,
  NOTIFICATION_KINDS,
  TEMPLATE_PLACEHOLDERS,
} from '../../domain/settings/notifications';
import {
  emailTemplateSetting,
  NOTIFICATION_SETTINGS_SETTING,
  SECURITY_POLICY_SETTING,
  settings,
  SETTINGS_MESSAGES,
  SUPPORT_CONTACT_SETTING,
} from '../../domain/settings/settings';
import { emailTemplates, eventLogSummary, notificationSettings, securityPolicy, supportContact } from '../../projections/settings';
import { fullNamesOf, organisationsAmong } from '../../projections/users';
import { securityPolicyAnswer, securityPolicyBody } from '../../contracts/identity';
import {
  accessControlAnswer,
  backupAnswer,
  kindParam,
  notificationsBody,
  notificationTableAnswer,
  settingHistoryAnswer,
  supportContactAnswer,
  supportContactFields,
  templateBody,
  templateListAnswer,
  type NotificationTable,
  type TemplateList,
} from '../../contracts/settings';
import { metadataFromRequest, runCommand } from '../../platform/commands/dispatch';
import { INTEGRATION_PERMISSIONS } from '../plugins/apiKeys';
import { HttpError } from '../plugins/errors';
import type { Queryable } from '../../platform/db';
import type { Services } from '../../platform/services';
import { updateBody } from './records';

const contactBody = updateBody(supportContactFields, ['updated_at']).meta({
  example: { phone: '+1 800 555 0199', email: 'support@partnerhub.test', hours: 'Monday to Friday, 8:00–18:00 CET' },
});

/** The settings whose history can be read: the fixed ones and one e-mail template per event kind. */
const SETTING_KEYS = [SUPPORT_CONTACT_SETTING, NOTIFICATION_SETTINGS_SETTING, SECURITY_POLICY_SETTING, ...NOTIFICATION_KINDS.map(emailTemplateSetting)] as [
  string,
  ...string[],
];
const historyQuery = z.object({ setting: z.enum(SETTING_KEYS, { error: 'There is no such setting.' }) }).strict();

/** Settings administrators change in System Settings; the support contact is read by the Support Center. */
export async function settingsRoutes(parent: FastifyInstance, services: Services): Promise<void> {
  const app = parent.withTypeProvider<ZodTypeProvider>();
  const { pool, reads } = services;

  app.get(
    '/settings/support-contact',
    { schema: { tags: ['settings'], summary: "The support team's phone, e-mail and hours", response: { 200: supportContactAnswer } } },
    async () => {
      return { success: true as const, data: await supportContact(reads) };
    },
  );

  app.put(
    '/settings/support-contact',
    {
      schema: {
        tags: ['settings'],
        summary: "Change the support team's phone, e-mail and hours (administrators)",
        body: contactBody,
        response: { 200: supportContactAnswer },
      },
    },
    async (request) => {
      await runCommand(services, settings, SUPPORT_CONTACT_SETTING, { type: 'ChangeSupportContact', ...request.body }, metadataFromRequest(request));
      return { success: true as const, message: SETTINGS_MESSAGES.saved, data: await supportContact(pool) };
    },
  );

  // ---- security: who must have a second factor, which organisations sign in through single sign-on only ----

  const securityView = async (db: Queryable = pool) => {
    const policy = await securityPolicy(db);
    return { mfa_required_for: policy.mfaRequiredFor, sso_required_organisations: policy.ssoRequiredOrganisations };
  };

  app.get(
    '/settings/security',
    {
      schema: {
        tags: ['settings'],
        summary: 'Who must have a second factor; organisations that sign in through single sign-on only (administrators)',
        response: { 200: securityPolicyAnswer },
      },
    },
    async () => {
      return { success: true as const, data: await securityView(reads) };
    },
  );

  app.put(
    '/settings/security',
    {
      schema: {
        tags: ['settings'],
        summary: 'Change who must have a second factor and which organisations must use single sign-on (administrators)',
        body: securityPolicyBody,
        response: { 200: securityPolicyAnswer },
      },
    },
    async (request) => {
      const organisations = request.body.sso_required_organisations ?? [];
      if (organisations.length) {
        const found = await organisationsAmong(pool, organisations);
        if (found.length !== new Set(organisations).size)
          throw new HttpError(400, 'VALIDATION_ERROR', 'There is no such organisation.', [
            { field: 'sso_required_organisations', message: 'There is no such organisation.' },
          ]);
      }
      await runCommand(
        services,
        settings,
        SECURITY_POLICY_SETTING,
        { type: 'ChangeSecurityPolicy', mfaRequiredFor: request.body.mfa_required_for, ssoRequiredOrganisations: organisations },
        metadataFromRequest(request),
      );
      return { success: true as const, message: SETTINGS_MESSAGES.securitySaved, data: await securityView() };
    },
  );

  // ---- notification settings: which events are e-mailed to whom ----

  const notificationTable = async (db: Queryable = pool): Promise<NotificationTable> => {
    const chosen = await notificationSettings(db);
    return {
      audiences: MAIL_AUDIENCES.map((audience) => ({ id: audience, label: MAIL_AUDIENCE_LABELS[audience] })),
      events: NOTIFICATION_EVENTS.map((event) => ({
        ...event,
        audiences: chosen?.mail[event.kind] ?? [...MAIL_AUDIENCES],
        configured: Boolean(chosen?.mail[event.kind]),
      })),
    };
  };

  app.get(
    '/settings/notifications',
    {
      schema: {
        tags: ['settings'],
        summary: 'Which notification events are e-mailed to which kinds of account (administrators)',
        response: { 200: notificationTableAnswer },
      },
    },
    async () => {
      return { success: true as const, data: await notificationTable(reads) };
    },
  );

  app.put(
    '/settings/notifications',
    {
      schema: {
        tags: ['settings'],
        summary: 'Choose, per notification event, who gets it by e-mail (administrators)',
        body: notificationsBody,
        response: { 200: notificationTableAnswer },
      },
    },
    async (request) => {
      const mail = Object.fromEntries(
        Object.entries(request.body.mail).filter((entry): entry is [string, (typeof MAIL_AUDIENCES)[number][]] => entry[1] !== undefined),
      );
      await runCommand(services, settings, NOTIFICATION_SETTINGS_SETTING, { type: 'ChangeNotificationSettings', mail }, metadataFromRequest(request));
      return { success: true as const, message: SETTINGS_MESSAGES.notificationsSaved, data: await notificationTable() };
    },
  );

  // ---- e-mail templates ----

  const templateList = async (db: Queryable = pool): Promise<TemplateList> => {
    const written = await emailTemplates(db);
    return {
      placeholders: Object.entries(TEMPLATE_PLACEHOLDERS).map(([name, description]) => ({ name, description })),
      standard: DEFAULT_EMAIL_TEMPLATE,
      templates: NOTIFICATION_EVENTS.map((event) => {
        const own = written[event.kind];
        return {
          ...event,
          subject: own?.subject ?? DEFAULT_EMAIL_TEMPLATE.subject,
          body: own?.body ?? DEFAULT_EMAIL_TEMPLATE.body,
          customised: Boolean(own),
          updated_at: own?.updated_at ?? null,
        };
      }),
    };
  };

  app.get(
    '/settings/email-templates',
    {
      schema: {
        tags: ['settings'],
        summary: 'The e-mail template of each notification event, with the placeholders (administrators)',
        response: { 200: templateListAnswer },
      },
    },
    async () => {
      return { success: true as const, data: await templateList(reads) };
    },
  );

  app.put(
    '/settings/email-templates/:kind',
    {
      schema: {
        tags: ['settings'],
        summary: "Write an event's e-mail subject and body (administrators)",
        params: kindParam,
        body: templateBody,
        response: { 200: templateListAnswer },
      },
    },
    async (request) => {
      const { kind } = request.params;
      await runCommand(services, settings, emailTemplateSetting(kind), { type: 'ChangeEmailTemplate', kind, ...request.body }, metadataFromRequest(request));
      return { success: true as const, message: SETTINGS_MESSAGES.templateSaved, data: await templateList() };
    },
  );

  app.delete(
    '/settings/email-templates/:kind',
    {
      schema: {
        tags: ['settings'],
        summary: "Return an event's e-mail to the standard wording (administrators)",
        params: kindParam,
        response: { 200: templateListAnswer },
      },
    },
    async (request) => {
      const { kind } = request.params;
      await runCommand(services, settings, emailTemplateSetting(kind), { type: 'ResetEmailTemplate', kind }, metadataFromRequest(request));
      return { success: true as const, message: SETTINGS_MESSAGES.templateReset, data: await templateList() };
    },
  );

  // ---- history of a setting: its own stream ----

  app.get(
    '/settings/history',
    {
      schema: {
        tags: ['settings'],
        summary: 'Every change of one setting, newest first (administrators)',
        querystring: historyQuery,
        response: { 200: settingHistoryAnswer },
      },
    },
    async (request) => {
      const events = await services.store.readStream(settings.streamId(request.query.setting));
      const actors = [...new Set(events.map((e) => e.metadata.actorId).filter((id): id is string => Boolean(id)))];
      const names = await fullNamesOf(reads, actors);
      const history = events
        .map((e) => ({
          type: e.type.replace(/\.v\d+$/, ''),
          value: e.data as Record<string, unknown>,
          changed_at: e.metadata.occurredAt,
          changed_by: e.metadata.actorId,
          changed_by_name: e.metadata.actorId ? (names.get(e.metadata.actorId) ?? null) : null,
        }))
        .reverse();
      return { success: true as const, data: { setting: request.query.setting, history } };
    },
  );

  // ---- access control: read-only ----

  app.get(
    '/settings/access-control',
    {
      schema: {
        tags: ['settings'],
        summary: 'The permissions each role starts with, and what API keys may read (administrators)',
        response: { 200: accessControlAnswer },
      },
    },
    async () => {
      return {
        success: true as const,
        data: {
          roles: ROLES.map((role) => ({
            role,
            label: ROLE_LABELS[role],
            permissions: DEFAULT_PERMISSIONS_BY_ROLE[role].map((p) => ({ name: p, label: PERMISSION_LABELS[p] })),
          })),
          integration: { permissions: INTEGRATION_PERMISSIONS.map((p) => ({ name: p, label: PERMISSION_LABELS[p] })) },
        },
      };
    },
  );

  // ---- backup: the event log ----

  app.get(
    '/settings/backup',
    { schema: { tags: ['settings'], summary: 'What the event log holds (administrators)', response: { 200: backupAnswer } } },
    async () => {
      return { success: true as const, data: await eventLogSummary(pool) };
    },
  );

  app.get(
    '/settings/backup/events',
    {
      schema: {
        tags: ['settings'],
        summary: 'Download the whole event log as JSON lines, oldest first (administrators)',
        response: { 200: z.string().describe('The event log, one JSON event a line, oldest first (application/x-ndjson), streamed') },
      },
    },
    async (request, reply) => {
      const head = await services.store.headPosition();
      // A stream is piped as it is: the answer's schema (a string) describes the file, the serializer never sees it.
      const file = reply as FastifyReply;
      const out = new PassThrough();
      const stamp = new Date().toISOString().slice(0, 19).replace(/[:T]/g, '-');
      reply.header('content-type', 'application/x-ndjson; charset=utf-8');
      reply.header('content-disposition', `attachment; filename="partnerhub-events-${stamp}.jsonl"`);
      if (!head) {
        out.end();
        return file.send(out);
      }
      const reached = (position: { commit: bigint; prepare: bigint }) =>
        position.commit > head.commit || (position.commit === head.commit && position.prepare >= head.prepare);
      // A batch's lines go out in one write: a write per event would be a socket write per event.
      const subscription = services.store.subscribeToAll({ batchSize: 500 }, async (batch) => {
        let lines = '';
        let last = false;
        for (const event of batch) {
          lines += `${JSON.stringify({
            id: event.id,
            stream: event.streamId,
            revision: event.revision.toString(),
            position: { commit: event.position.commit.toString(), prepare: event.position.prepare.toString() },
            type: event.type,
            data: event.data,
            metadata: event.metadata,
          })}\n`;
          if (reached(event.position)) {
            last = true;
            break;
          }
        }
        if (out.destroyed) return;
        if (!out.write(lines)) await new Promise((resolve) => (out.once('drain', resolve), out.once('close', resolve)));
        if (last) {
          out.end();
          void subscription.stop();
        }
      });
      // A client that goes away stops the reading.
      request.raw.on('close', () => {
        out.destroy();
        void subscription.stop();
      });
      void subscription.done.then((error) => {
        if (error) out.destroy(error);
        else out.end();
      });
      return file.send(out);
    },
  );
}
