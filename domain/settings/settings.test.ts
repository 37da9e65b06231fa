import { describe, expect, it } from 'vitest';
import { deciderSpec } from '../deciderSpec';
import { settings, SETTINGS_MESSAGES, telLink } from './settings';
import { DEFAULT_EMAIL_TEMPLATE, mailsTo, renderTemplate, SAMPLE_TEMPLATE_VALUES } from './notifications';

const spec = deciderSpec(settings);
const contact = { phone: ' +1 (800) 555-0199 ', email: ' support@partnerhub.test ', hours: ' Mon–Fri 8:00–18:00 CET ' };
const changed = {
  type: 'SupportContactChanged.v1' as const,
  data: { phone: '+1 (800) 555-0199', email: 'support@partnerhub.test', hours: 'Mon–Fri 8:00–18:00 CET' },
};

describe('support contact setting', () => {
  it('an administrator sets the phone, e-mail and hours, trimmed', () =>
    spec
      .given([])
      .when({ type: 'ChangeSupportContact', ...contact })
      .then([changed]));
  it('setting the same values again changes nothing', () =>
    spec
      .given([changed])
      .when({ type: 'ChangeSupportContact', ...contact })
      .then([]));
  it('refuses anyone but administrators', () =>
    spec
      .given([])
      .when({ type: 'ChangeSupportContact', ...contact }, { actorRole: 'support' })
      .thenThrows(SETTINGS_MESSAGES.onlyAdmins, 'INSUFFICIENT_PERMISSIONS'));
  it('refuses a missing or malformed phone or e-mail and missing hours', () => {
    spec
      .given([])
      .when({ type: 'ChangeSupportContact', ...contact, phone: ' ' })
      .thenThrows(SETTINGS_MESSAGES.phoneRequired);
    spec
      .given([])
      .when({ type: 'ChangeSupportContact', ...contact, phone: 'call us' })
      .thenThrows(SETTINGS_MESSAGES.phoneInvalid);
    spec
      .given([])
      .when({ type: 'ChangeSupportContact', ...contact, email: 'support@' })
      .thenThrows(SETTINGS_MESSAGES.emailInvalid);
    spec
      .given([])
      .when({ type: 'ChangeSupportContact', ...contact, hours: '' })
      .thenThrows(SETTINGS_MESSAGES.hoursRequired);
  });
  it('makes a tel: link of the number', () => expect(telLink('+1 (800) 555-0199')).toBe('tel:+18005550199'));
});

describe('notification settings', () => {
  it('keeps, per event, the audiences e-mailed, in one order', () =>
    spec
      .given([])
      .when({ type: 'ChangeNotificationSettings', mail: { 'ticket-opened': ['support', 'administrators'], 'order-status-changed': [] } })
      .then([{ type: 'NotificationSettingsChanged.v1', data: { mail: { 'order-status-changed': [], 'ticket-opened': ['administrators', 'support'] } } }]));
  it('saving the same choice again changes nothing', () =>
    spec
      .given([{ type: 'NotificationSettingsChanged.v1', data: { mail: { 'ticket-opened': ['administrators', 'support'] } } }])
      .when({ type: 'ChangeNotificationSettings', mail: { 'ticket-opened': ['support', 'administrators'] } })
      .then([]));
  it('refuses unknown events and audiences, and anyone but administrators', () => {
    spec
      .given([])
      .when({ type: 'ChangeNotificationSettings', mail: { 'lunch-served': [] } })
      .thenThrows(SETTINGS_MESSAGES.unknownEvent);
    spec
      .given([])
      .when({ type: 'ChangeNotificationSettings', mail: { 'ticket-opened': ['everyone'] } })
      .thenThrows(SETTINGS_MESSAGES.unknownAudience);
    spec
      .given([])
      .when({ type: 'ChangeNotificationSettings', mail: {} }, { actorRole: 'partner' })
      .thenThrows(SETTINGS_MESSAGES.onlyAdmins, 'INSUFFICIENT_PERMISSIONS');
  });
  it('e-mails everyone a kind notifies until the kind is configured, then only the chosen audiences', () => {
    expect(mailsTo(null, 'ticket-opened', 'partner')).toBe(true);
    const chosen = { mail: { 'ticket-opened': ['support' as const] } };
    expect(mailsTo(chosen, 'ticket-opened', 'support')).toBe(true);
    expect(mailsTo(chosen, 'ticket-opened', 'admin')).toBe(false);
    expect(mailsTo(chosen, 'order-status-changed', 'partner_user')).toBe(true);
  });
});

describe('e-mail templates', () => {
  const template = {
    type: 'ChangeEmailTemplate' as const,
    kind: 'ticket-opened',
    subject: ' [{{portal}}] {{title}} ',
    body: 'Hi {{recipient_name}},\r\n{{message}}\r\n{{link}}',
  };
  const changed = {
    type: 'EmailTemplateChanged.v1' as const,
    data: { kind: 'ticket-opened', subject: '[{{portal}}] {{title}}', body: 'Hi {{recipient_name}},\n{{message}}\n{{link}}' },
  };
  it('keeps the subject and body, trimmed', () => spec.given([]).when(template).then([changed]));
  it('refuses unknown placeholders, empty parts and unknown events', () => {
    spec
      .given([])
      .when({ ...template, body: 'Hi {{first_name}}' })
      .thenThrows('Unknown placeholder: {{first_name}}.');
    spec
      .given([])
      .when({ ...template, subject: '  ' })
      .thenThrows(SETTINGS_MESSAGES.subjectRequired);
    spec
      .given([])
      .when({ ...template, body: '' })
      .thenThrows(SETTINGS_MESSAGES.bodyRequired);
    spec
      .given([])
      .when({ ...template, kind: 'nope' })
      .thenThrows(SETTINGS_MESSAGES.unknownEvent);
  });
  it('resets to the standard wording, once', () => {
    spec
      .given([changed])
      .when({ type: 'ResetEmailTemplate', kind: 'ticket-opened' })
      .then([{ type: 'EmailTemplateReset.v1', data: { kind: 'ticket-opened' } }]);
    spec
      .given([changed, { type: 'EmailTemplateReset.v1', data: { kind: 'ticket-opened' } }])
      .when({ type: 'ResetEmailTemplate', kind: 'ticket-opened' })
      .then([]);
  });
  it('fills placeholders and drops the link line when there is no link', () => {
    expect(renderTemplate(DEFAULT_EMAIL_TEMPLATE, { ...SAMPLE_TEMPLATE_VALUES, link: '' }).body).toBe(
      `Hello Alex Morgan,\n\n${SAMPLE_TEMPLATE_VALUES.message}\n\n— PartnerHub`,
    );
    expect(renderTemplate({ subject: '{{title}}', body: '{{link}}' }, SAMPLE_TEMPLATE_VALUES)).toEqual({
      subject: SAMPLE_TEMPLATE_VALUES.title,
      body: SAMPLE_TEMPLATE_VALUES.link,
    });
  });
});
