import { PassThrough } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { DEFAULT_PERMISSIONS_BY_ROLE, PERMISSION_LABELS, ROLE_LABELS, ROLES } from '../../domain/access';
import { API_KEY_MESSAGES, API_KEY_SCOPES, apiKeys } from '../../domain/settings/apiKeys';
import {
  DEFAULT_EMAIL_TEMPLATE,
  MAIL_AUDIENCE_LABELS,
  MAIL_AUDIENCES,
  NOTIFICATION_EVENTS,
  NOTIFICATION_KINDS,
  TEMPLATE_PLACEHOLDERS,
} from '../../domain/settings/notifications';
import { emailTemplateSetting, NOTIFICATION_SETTINGS_SETTING, settings, SETTINGS_MESSAGES, SUPPORT_CONTACT_SETTING } from '../../domain/settings/settings';
import { emailTemplates, listApiKeys, notificationSettings, supportContact } from '../../projections/settings';
import { metadataFromRequest, runCommand } from '../commands/dispatch';
import { generateApiKey, INTEGRATION_PERMISSIONS } from '../plugins/apiKeys';
import { HttpError } from '../plugins/errors';
import type { Services } from '../services';
import { recordAnswer, updateBody } from './records';
import { answerCreated, earlierCreation, newRecordId } from './created';

const contactBody = updateBody(
  { phone: z.string().max(40, 'Phone may have at most 40 characters.'), email: z.string().max(200), hours: z.string().max(200, 'Hours may have at most 200 characters.') },
  ['updated_at'],
).meta({ example: { phone: '+1 800 555 0199', email: 'support@partnerhub.test', hours: 'Monday to Friday, 8:00–18:00 CET' } });

const notificationsBody = z
  .object({ mail: z.partialRecord(z.enum(NOTIFICATION_KINDS), z.array(z.enum(MAIL_AUDIENCES)).max(MAIL_AUDIENCES.length)) })
  .strict()
  .meta({ example: { mail: { 'ticket-opened': ['administrators', 'support'], 'order-status-changed': ['partners', 'distributors'] } } });

const kindParam = z.object({ kind: z.enum(NOTIFICATION_KINDS, { error: SETTINGS_MESSAGES.unknownEvent }) }).strict();

const templateBody = z
  .object({ subject: z.string().max(200, SETTINGS_MESSAGES.subjectTooLong), body: z.string().max(5000, SETTINGS_MESSAGES.bodyTooLong) })
  .strict()
  .meta({ example: { subject: '[PartnerHub] {{title}}', body: 'Hello {{recipient_name}},\n\n{{message}}\n\n{{link}}' } });

const apiKeyBody = z
  .object({
    name: z.string().max(80, API_KEY_MESSAGES.nameTooLong),
    scopes: z.array(z.enum(API_KEY_SCOPES, { error: API_KEY_MESSAGES.scopeInvalid }), { error: API_KEY_MESSAGES.scopeInvalid }).max(API_KEY_SCOPES.length, API_KEY_MESSAGES.scopeInvalid).optional(),
  })
  .strict()
  .meta({ example: { name: 'Web form leads', scopes: ['leads:write'] } });

/** The settings whose history can be read: the fixed ones and one e-mail template per event kind. */
const SETTING_KEYS = [SUPPORT_CONTACT_SETTING, NOTIFICATION_SETTINGS_SETTING, ...NOTIFICATION_KINDS.map(emailTemplateSetting)] as [string, ...string[]];
const historyQuery = z.object({ setting: z.enum(SETTING_KEYS, { error: 'There is no such setting.' }) }).strict();

/** Settings administrators change in System Settings; the support contact is read by the Support Center. */
export async function settingsRoutes(parent: FastifyInstance, services: Services): Promise<void> {
  const app = parent.withTypeProvider<ZodTypeProvider>();
  const { pool } = services;

  app.get('/settings/support-contact', { schema: { tags: ['settings'], summary: "The support team's phone, e-mail and hours" } }, async () => {
    return { success: true, data: await supportContact(pool) };
  });

  app.put('/settings/support-contact', { schema: { tags: ['settings'], summary: "Change the support team's phone, e-mail and hours (administrators)", body: contactBody } }, async (request) => {
    await runCommand(services, settings, SUPPORT_CONTACT_SETTING, { type: 'ChangeSupportContact', ...request.body }, metadataFromRequest(request));
    return { success: true, message: SETTINGS_MESSAGES.saved, data: await supportContact(pool) };
  });

  // ---- notification settings: which events are e-mailed to whom ----

  const notificationTable = async () => {
    const chosen = await notificationSettings(pool);
    return {
      audiences: MAIL_AUDIENCES.map((audience) => ({ id: audience, label: MAIL_AUDIENCE_LABELS[audience] })),
      events: NOTIFICATION_EVENTS.map((event) => ({ ...event, audiences: chosen?.mail[event.kind] ?? [...MAIL_AUDIENCES], configured: Boolean(chosen?.mail[event.kind]) })),
    };
  };

  app.get('/settings/notifications', { schema: { tags: ['settings'], summary: 'Which notification events are e-mailed to which kinds of account (administrators)' } }, async () => {
    return { success: true, data: await notificationTable() };
  });

  app.put('/settings/notifications', { schema: { tags: ['settings'], summary: 'Choose, per notification event, who gets it by e-mail (administrators)', body: notificationsBody } }, async (request) => {
    const mail = Object.fromEntries(Object.entries(request.body.mail).filter((entry): entry is [string, (typeof MAIL_AUDIENCES)[number][]] => entry[1] !== undefined));
    await runCommand(services, settings, NOTIFICATION_SETTINGS_SETTING, { type: 'ChangeNotificationSettings', mail }, metadataFromRequest(request));
    return { success: true, message: SETTINGS_MESSAGES.notificationsSaved, data: await notificationTable() };
  });

  // ---- e-mail templates ----

  const templateList = async () => {
    const written = await emailTemplates(pool);
    return {
      placeholders: Object.entries(TEMPLATE_PLACEHOLDERS).map(([name, description]) => ({ name, description })),
      standard: DEFAULT_EMAIL_TEMPLATE,
      templates: NOTIFICATION_EVENTS.map((event) => {
        const own = written[event.kind];
        return { ...event, subject: own?.subject ?? DEFAULT_EMAIL_TEMPLATE.subject, body: own?.body ?? DEFAULT_EMAIL_TEMPLATE.body, customised: Boolean(own), updated_at: own?.updated_at ?? null };
      }),
    };
  };

  app.get('/settings/email-templates', { schema: { tags: ['settings'], summary: 'The e-mail template of each notification event, with the placeholders (administrators)' } }, async () => {
    return { success: true, data: await templateList() };
  });

  app.put(
    '/settings/email-templates/:kind',
    { schema: { tags: ['settings'], summary: "Write an event's e-mail subject and body (administrators)", params: kindParam, body: templateBody } },
    async (request) => {
      const { kind } = request.params;
      await runCommand(services, settings, emailTemplateSetting(kind), { type: 'ChangeEmailTemplate', kind, ...request.body }, metadataFromRequest(request));
      return { success: true, message: SETTINGS_MESSAGES.templateSaved, data: await templateList() };
    },
  );

  app.delete('/settings/email-templates/:kind', { schema: { tags: ['settings'], summary: "Return an event's e-mail to the standard wording (administrators)", params: kindParam } }, async (request) => {
    const { kind } = request.params;
    await runCommand(services, settings, emailTemplateSetting(kind), { type: 'ResetEmailTemplate', kind }, metadataFromRequest(request));
    return { success: true, message: SETTINGS_MESSAGES.templateReset, data: await templateList() };
  });

  // ---- history of a setting: its own stream ----

  app.get('/settings/history', { schema: { tags: ['settings'], summary: 'Every change of one setting, newest first (administrators)', querystring: historyQuery } }, async (request) => {
    const events = await services.store.readStream(settings.streamId(request.query.setting));
    const actors = [...new Set(events.map((e) => e.metadata.actorId).filter((id): id is string => Boolean(id)))];
    const { rows } = actors.length ? await pool.query<{ id: string; full_name: string }>('SELECT id, full_name FROM read.users WHERE id = ANY($1)', [actors]) : { rows: [] };
    const names = new Map(rows.map((r) => [r.id, r.full_name]));
    const history = events
      .map((e) => ({ type: e.type.replace(/\.v\d+$/, ''), value: e.data, changed_at: e.metadata.occurredAt, changed_by: e.metadata.actorId, changed_by_name: e.metadata.actorId ? (names.get(e.metadata.actorId) ?? null) : null }))
      .reverse();
    return { success: true, data: { setting: request.query.setting, history } };
  });

  // ---- access control: read-only ----

  app.get('/settings/access-control', { schema: { tags: ['settings'], summary: 'The permissions each role starts with, and what API keys may read (administrators)' } }, async () => {
    return {
      success: true,
      data: {
        roles: ROLES.map((role) => ({ role, label: ROLE_LABELS[role], permissions: DEFAULT_PERMISSIONS_BY_ROLE[role].map((p) => ({ name: p, label: PERMISSION_LABELS[p] })) })),
        integration: { permissions: INTEGRATION_PERMISSIONS.map((p) => ({ name: p, label: PERMISSION_LABELS[p] })) },
      },
    };
  });

  // ---- API keys ----

  app.get('/settings/api-keys', { schema: { tags: ['settings'], summary: 'API keys, active first (administrators; keys are never shown again)' } }, async () => {
    return { success: true, data: await listApiKeys(pool) };
  });

  app.post('/settings/api-keys', { schema: { tags: ['settings'], summary: 'Create an API key for an integration; the answer holds the key, once (administrators)', body: apiKeyBody } }, async (request, reply) => {
    const keyId = newRecordId(request, 'api-key');
    const created = { id: keyId, location: '/api/settings/api-keys' };
    const stored = async () => (await listApiKeys(pool)).find((k) => k.id === keyId)!;
    const earlier = await earlierCreation(services, request, apiKeys.streamId(keyId), keyId);
    // The secret is stored hashed: a repeated request gets the key without it.
    if (earlier) return answerCreated(services, reply, { ...created, earlier }, async () => recordAnswer(await stored(), API_KEY_MESSAGES.createdBefore));
    const { key, prefix, keyHash } = generateApiKey();
    await runCommand(services, apiKeys, keyId, { type: 'CreateApiKey', keyId, name: request.body.name, prefix, keyHash, scopes: request.body.scopes ?? [] }, metadataFromRequest(request));
    // The key is in this answer only (a 202 included): it is stored hashed.
    return answerCreated(services, reply, created, async () => recordAnswer({ ...(await stored()), key }, API_KEY_MESSAGES.created), { key });
  });

  app.delete('/settings/api-keys/:id', { schema: { tags: ['settings'], summary: 'Revoke an API key: requests with it are refused at once (administrators)', params: z.object({ id: z.uuid() }).strict() } }, async (request) => {
    await runCommand(services, apiKeys, request.params.id, { type: 'RevokeApiKey' }, metadataFromRequest(request));
    const revoked = (await listApiKeys(pool)).find((k) => k.id === request.params.id);
    if (!revoked) throw new HttpError(404, 'NOT_FOUND', API_KEY_MESSAGES.notFound);
    return recordAnswer(revoked, API_KEY_MESSAGES.revoked);
  });

  // ---- backup: the event log ----

  app.get('/settings/backup', { schema: { tags: ['settings'], summary: 'What the event log holds (administrators)' } }, async () => {
    const { rows } = await pool.query<{ events: string; streams: string; first: Date | null; last: Date | null }>(
      'SELECT count(*) AS events, count(DISTINCT stream_id) AS streams, min(recorded_at) AS first, max(recorded_at) AS last FROM events',
    ).catch(() => ({ rows: [{ events: '0', streams: '0', first: null, last: null }] }));
    const r = rows[0]!;
    return { success: true, data: { events: Number(r.events), streams: Number(r.streams), first_event_at: r.first?.toISOString() ?? null, last_event_at: r.last?.toISOString() ?? null } };
  });

  app.get('/settings/backup/events', { schema: { tags: ['settings'], summary: 'Download the whole event log as JSON lines, oldest first (administrators)' } }, async (request, reply) => {
    const head = await services.store.headPosition();
    const out = new PassThrough();
    const stamp = new Date().toISOString().slice(0, 19).replace(/[:T]/g, '-');
    reply.header('content-type', 'application/x-ndjson; charset=utf-8');
    reply.header('content-disposition', `attachment; filename="partnerhub-events-${stamp}.jsonl"`);
    if (!head) {
      out.end();
      return reply.send(out);
    }
    const reached = (position: { commit: bigint; prepare: bigint }) => position.commit > head.commit || (position.commit === head.commit && position.prepare >= head.prepare);
    const subscription = services.store.subscribeToAll({ batchSize: 500 }, async (batch) => {
      for (const event of batch) {
        if (out.destroyed) return;
        const line = JSON.stringify({
          id: event.id,
          stream: event.streamId,
          revision: event.revision.toString(),
          position: { commit: event.position.commit.toString(), prepare: event.position.prepare.toString() },
          type: event.type,
          data: event.data,
          metadata: event.metadata,
        });
        if (!out.write(`${line}\n`)) await new Promise((resolve) => (out.once('drain', resolve), out.once('close', resolve)));
        if (reached(event.position)) {
          out.end();
          void subscription.stop();
          return;
        }
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
    return reply.send(out);
  });
}
