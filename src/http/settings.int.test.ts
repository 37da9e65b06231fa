import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SETTINGS_MESSAGES } from '../../domain/settings/settings';
import { demoUserId } from '../seed/identity';
import { as, login, type Session } from '../testing/api';
import { startTestPortal, type TestPortal } from '../testing/portal';
import { GOVERNANCE_MESSAGES } from './governance';

let t: TestPortal;
let admin: Session;
let partner: Session;
let partnerUser: Session;
let distributor: Session;
let manufacturer: Session;

beforeAll(async () => {
  t = await startTestPortal();
  [admin, partner, partnerUser, distributor, manufacturer] = await Promise.all(
    ['admin', 'partner', 'partner.user', 'distributor', 'manufacturer'].map((name) => login(t.app, `${name}@partnerhub.test`)),
  );
});
afterAll(async () => {
  await t?.close();
});

describe('support contact', () => {
  it('is readable by every signed-in user of every role, and changeable only by administrators', async () => {
    const emails = ['admin', 'partner', 'partner.user', 'distributor', 'distributor.user', 'manufacturer', 'support'].map((name) => `${name}@partnerhub.test`);
    const sessions = await Promise.all(emails.map((email) => login(t.app, email)));
    const answers = await Promise.all(sessions.map((session) => as(t.app, session)({ method: 'GET', url: '/api/settings/support-contact' })));
    for (const [index, answer] of answers.entries()) {
      expect(answer.statusCode, `${emails[index]}: ${answer.body}`).toBe(200);
      expect(answer.json().data, emails[index]).toMatchObject({ phone: expect.any(String), email: expect.any(String), hours: expect.any(String) });
    }
    expect((await t.app.inject({ method: 'GET', url: '/api/settings/support-contact' })).statusCode).toBe(401);
    const contact = answers[0].json().data;
    for (const session of sessions.slice(1)) {
      expect((await as(t.app, session)({ method: 'PUT', url: '/api/settings/support-contact', payload: contact })).statusCode).toBe(403);
    }
  });
});

describe('notification settings', () => {
  it('e-mails everyone each event notifies until an administrator chooses, and keeps the history', async () => {
    const before = await as(t.app, admin)({ method: 'GET', url: '/api/settings/notifications' });
    expect(before.statusCode).toBe(200);
    const ticketOpened = before.json().data.events.find((e: { kind: string }) => e.kind === 'ticket-opened');
    expect(ticketOpened).toMatchObject({
      configured: false,
      audiences: ['administrators', 'partners', 'distributors', 'team_members', 'support', 'manufacturers'],
    });

    const saved = await as(
      t.app,
      admin,
    )({ method: 'PUT', url: '/api/settings/notifications', payload: { mail: { 'ticket-opened': ['support'], 'order-status-changed': [] } } });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().message).toBe(SETTINGS_MESSAGES.notificationsSaved);
    const events = saved.json().data.events as Array<{ kind: string; audiences: string[]; configured: boolean }>;
    expect(events.find((e) => e.kind === 'ticket-opened')).toMatchObject({ audiences: ['support'], configured: true });
    expect(events.find((e) => e.kind === 'order-status-changed')).toMatchObject({ audiences: [], configured: true });

    const history = await as(t.app, admin)({ method: 'GET', url: '/api/settings/history?setting=notification-settings' });
    expect(history.json().data.history[0]).toMatchObject({ type: 'NotificationSettingsChanged', changed_by_name: 'Alex Morgan' });
  });

  it('refuses unknown events and audiences, and anyone but administrators', async () => {
    expect((await as(t.app, admin)({ method: 'PUT', url: '/api/settings/notifications', payload: { mail: { 'lunch-served': ['support'] } } })).statusCode).toBe(
      400,
    );
    expect(
      (await as(t.app, admin)({ method: 'PUT', url: '/api/settings/notifications', payload: { mail: { 'ticket-opened': ['everyone'] } } })).statusCode,
    ).toBe(400);
    expect((await as(t.app, partner)({ method: 'GET', url: '/api/settings/notifications' })).statusCode).toBe(403);
  });
});

describe('e-mail templates', () => {
  it('saves a template, lists it as customised, and resets it to the standard wording', async () => {
    const saved = await as(
      t.app,
      admin,
    )({
      method: 'PUT',
      url: '/api/settings/email-templates/order-status-changed',
      payload: { subject: '[{{portal}}] {{title}}', body: 'Dear {{recipient_name}},\n\n{{message}}\n\n{{link}}' },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const template = saved.json().data.templates.find((e: { kind: string }) => e.kind === 'order-status-changed');
    expect(template).toMatchObject({ subject: '[{{portal}}] {{title}}', customised: true });
    const reset = await as(t.app, admin)({ method: 'DELETE', url: '/api/settings/email-templates/order-status-changed' });
    expect(reset.json().data.templates.find((e: { kind: string }) => e.kind === 'order-status-changed')).toMatchObject({
      subject: '{{title}}',
      customised: false,
    });
    const history = await as(t.app, admin)({ method: 'GET', url: '/api/settings/history?setting=email-template.order-status-changed' });
    expect(history.json().data.history.map((h: { type: string }) => h.type)).toEqual(['EmailTemplateReset', 'EmailTemplateChanged']);
  });

  it('names an unknown placeholder', async () => {
    const refused = await as(
      t.app,
      admin,
    )({ method: 'PUT', url: '/api/settings/email-templates/ticket-opened', payload: { subject: '{{title}}', body: 'Hi {{first_name}}' } });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toBe('Unknown placeholder: {{first_name}}.');
    expect(
      (await as(t.app, admin)({ method: 'PUT', url: '/api/settings/email-templates/no-such-event', payload: { subject: 'x', body: 'y' } })).statusCode,
    ).toBe(400);
  });
});

describe('access control and backup', () => {
  it('shows the permissions each role starts with', async () => {
    const answer = await as(t.app, admin)({ method: 'GET', url: '/api/settings/access-control' });
    const partnerRole = answer.json().data.roles.find((r: { role: string }) => r.role === 'partner');
    expect(partnerRole.permissions.map((p: { name: string }) => p.name)).toContain('Rebates.Create');
    expect(answer.json().data.integration.permissions.every((p: { name: string }) => /\.(Read|Browse)$/.test(p.name))).toBe(true);
  });

  it('downloads the whole event log as JSON lines', async () => {
    const summary = (await as(t.app, admin)({ method: 'GET', url: '/api/settings/backup' })).json().data;
    expect(summary.events).toBeGreaterThan(10);
    const download = await as(t.app, admin)({ method: 'GET', url: '/api/settings/backup/events' });
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-disposition']).toMatch(/^attachment; filename="partnerhub-events-.*\.jsonl"$/);
    const lines = download.body
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string; stream: string });
    expect(lines.length).toBeGreaterThanOrEqual(summary.events);
    expect(lines[0]!.type).toBeTruthy();
    expect(lines.some((line) => line.type === 'NotificationSettingsChanged.v1')).toBe(true);
    expect((await as(t.app, partner)({ method: 'GET', url: '/api/settings/backup/events' })).statusCode).toBe(403);
  });
});

describe('partnership governance', () => {
  it("answers the caller's own organisation: agreement, orders, account team and rebate programme", async () => {
    const answer = await as(t.app, partner)({ method: 'GET', url: '/api/governance' });
    expect(answer.statusCode, answer.body).toBe(200);
    const data = answer.json().data;
    const organisationId = demoUserId('partner@partnerhub.test');
    expect(data.organisation_id).toBe(organisationId);
    expect(data.agreement.status).toBe('Active');
    expect(data.agreement.renewal_date > new Date().toISOString().slice(0, 10)).toBe(true);
    const { rows } = await t.portal.services.pool.query<{ order_number: string }>('SELECT order_number FROM read.orders WHERE organisation_id = $1', [
      organisationId,
    ]);
    expect(data.orders.recent.map((o: { order_number: string }) => o.order_number).sort()).toEqual(rows.map((r) => r.order_number).sort());
    expect(data.account_team.members.map((m: { email: string }) => m.email)).toEqual(
      expect.arrayContaining(['partner@partnerhub.test', 'partner.user@partnerhub.test']),
    );
    expect(data.account_team.support.email).toBe('support@partnerhub.test');
    expect(data.rebate_programme.quarters).toHaveLength(4);
    expect(data.rebate_programme.annual_target).toBe(data.rebate_programme.quarters.reduce((sum: number, q: { target: number }) => sum + q.target, 0));
  });

  it("never shows another organisation's governance", async () => {
    const mine = (await as(t.app, distributor)({ method: 'GET', url: '/api/governance' })).json().data;
    expect(mine.organisation_id).toBe(demoUserId('distributor@partnerhub.test'));
    expect(mine.account_team.members.map((m: { email: string }) => m.email)).not.toContain('partner@partnerhub.test');
    const other = await as(t.app, distributor)({ method: 'GET', url: `/api/governance?organisation_id=${demoUserId('partner@partnerhub.test')}` });
    expect(other.statusCode).toBe(404);
    expect((await as(t.app, partnerUser)({ method: 'GET', url: '/api/governance' })).statusCode).toBe(403);
    expect((await as(t.app, manufacturer)({ method: 'GET', url: '/api/governance' })).statusCode).toBe(403);
  });

  it('lets administrators read any organisation they name', async () => {
    const unnamed = await as(t.app, admin)({ method: 'GET', url: '/api/governance' });
    expect(unnamed.statusCode).toBe(400);
    expect(unnamed.json().message).toBe(GOVERNANCE_MESSAGES.chooseOrganisation);
    const named = await as(t.app, admin)({ method: 'GET', url: `/api/governance?organisation_id=${demoUserId('partner@partnerhub.test')}` });
    expect(named.json().data.company_name).toBe('Northwind Networks');
  });
});

describe('the role model', () => {
  it('lists roles, one role, the hierarchy, and validates permission names against what the caller may give', async () => {
    const roles = (await as(t.app, admin)({ method: 'GET', url: '/api/permissions/roles' })).json().data as Array<{
      role: string;
      label: string;
      sub_user_role: string | null;
      default_permissions: Array<{ name: string; label: string }>;
    }>;
    expect(roles.map((r) => r.role)).toEqual(expect.arrayContaining(['admin', 'partner', 'partner_user', 'distributor', 'support', 'manufacturer']));
    const partnerRole = roles.find((r) => r.role === 'partner')!;
    expect(partnerRole).toMatchObject({ label: 'Partner', sub_user_role: 'partner_user' });
    expect(partnerRole.default_permissions).toContainEqual(expect.objectContaining({ name: 'Projects.Read', label: 'View Projects' }));
    // A partner reads its own role and its team members', not others.
    const own = (await as(t.app, partner)({ method: 'GET', url: '/api/permissions/roles' })).json().data as Array<{ role: string }>;
    expect(own.map((r) => r.role).sort()).toEqual(['partner', 'partner_user']);
    expect((await as(t.app, partner)({ method: 'GET', url: '/api/permissions/role/partner_user' })).statusCode).toBe(200);
    expect((await as(t.app, partner)({ method: 'GET', url: '/api/permissions/role/admin' })).statusCode).toBe(403);
    expect((await as(t.app, admin)({ method: 'GET', url: '/api/permissions/role/wizard' })).statusCode).toBe(404);
    const hierarchy = (await as(t.app, partner)({ method: 'GET', url: '/api/permissions/hierarchy' })).json().data;
    expect(hierarchy).toEqual([expect.objectContaining({ role: 'partner', sub_user_role: 'partner_user' })]);

    const checked = await as(
      t.app,
      partner,
    )({ method: 'POST', url: '/api/permissions/validate', payload: { permissions: ['projects_read', 'Orders.Track', 'Users.Delete', 'Flying.Carpet'] } });
    expect(checked.statusCode, checked.body).toBe(200);
    expect(checked.json().data).toEqual({
      valid: false,
      permissions: ['Projects.Read', 'Orders.Track', 'Users.Delete'],
      unknown: ['Flying.Carpet'],
      not_grantable: ['Users.Delete'],
    });
    const fine = await as(t.app, partner)({ method: 'POST', url: '/api/permissions/validate', payload: { permissions: ['Projects.Read'] } });
    expect(fine.json()).toMatchObject({ message: 'Every permission can be given.', data: { valid: true } });
    expect((await as(t.app, partner)({ method: 'POST', url: '/api/permissions/validate', payload: { permissions: 'Projects.Read' } })).statusCode).toBe(400);
  });
});
