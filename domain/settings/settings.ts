import { isAdminRole } from '../access/roles';
import { assertNever, DomainError, type CommandMetadata, type Decider } from '../decider';
import { isNotificationKind, MAIL_AUDIENCES, unknownPlaceholders, type EmailTemplate, type MailAudience, type NotificationSettings } from './notifications';

/**
 * Portal settings that administrators change in the admin panel's System Settings. One stream per
 * setting, so each keeps its own history: the support contact (shown in the Support Center), the
 * notification settings (which events are e-mailed to whom) and one e-mail template per event kind.
 */

export interface SupportContact {
  phone: string;
  email: string;
  hours: string;
}

export const SUPPORT_CONTACT_SETTING = 'support-contact';
export const NOTIFICATION_SETTINGS_SETTING = 'notification-settings';
export const emailTemplateSetting = (kind: string) => `email-template.${kind}`;
export const SECURITY_POLICY_SETTING = 'security-policy';

/** Who must have a second factor, and the organisations (their owners' ids) whose people sign in only through single sign-on. */
export const MFA_REQUIREMENTS = ['nobody', 'administrators', 'everyone'] as const;
export type MfaRequirement = (typeof MFA_REQUIREMENTS)[number];
export interface SecurityPolicy {
  mfaRequiredFor: MfaRequirement;
  ssoRequiredOrganisations: string[];
}
export const DEFAULT_SECURITY_POLICY: SecurityPolicy = { mfaRequiredFor: 'nobody', ssoRequiredOrganisations: [] };

export const SETTINGS_MESSAGES = {
  onlyAdmins: 'Only administrators can change settings.',
  phoneRequired: 'Phone is required.',
  phoneInvalid: 'Phone may hold digits, spaces, +, -, ( and ) only.',
  emailRequired: 'Email is required.',
  emailInvalid: 'Email is invalid.',
  hoursRequired: 'Hours are required.',
  saved: 'Support contact saved',
  unknownEvent: 'There is no such notification event.',
  unknownAudience: 'E-mails can go to administrators, partners, distributors, team members, support staff or manufacturers only.',
  notificationsSaved: 'Notification settings saved',
  subjectRequired: 'Subject is required.',
  subjectTooLong: 'Subject may have at most 200 characters.',
  bodyRequired: 'Body is required.',
  bodyTooLong: 'Body may have at most 5000 characters.',
  unknownPlaceholder: (names: string[]) => `Unknown placeholder${names.length === 1 ? '' : 's'}: ${names.map((n) => `{{${n}}}`).join(', ')}.`,
  templateSaved: 'E-mail template saved',
  templateReset: 'E-mail template reset to the standard wording',
  securitySaved: 'Security settings saved',
} as const;

export type SettingState = { status: 'none' } | { status: 'set'; value: unknown };

export type SettingEvent =
  | { type: 'SupportContactChanged.v1'; data: SupportContact }
  | { type: 'NotificationSettingsChanged.v1'; data: NotificationSettings }
  | { type: 'EmailTemplateChanged.v1'; data: { kind: string } & EmailTemplate }
  | { type: 'EmailTemplateReset.v1'; data: { kind: string } }
  | { type: 'SecurityPolicyChanged.v1'; data: SecurityPolicy };

export type SettingCommand =
  | { type: 'ChangeSupportContact'; phone: string; email: string; hours: string }
  /** The whole table: for each event kind listed, the audiences e-mailed. */
  | { type: 'ChangeNotificationSettings'; mail: Record<string, string[]> }
  | { type: 'ChangeEmailTemplate'; kind: string; subject: string; body: string }
  | { type: 'ResetEmailTemplate'; kind: string }
  | { type: 'ChangeSecurityPolicy'; mfaRequiredFor: MfaRequirement; ssoRequiredOrganisations: string[] };

const invalid = (message: string, field: string) => new DomainError('invalid', 'VALIDATION_ERROR', message, [{ field, message }]);

export function decide(command: SettingCommand, state: SettingState, metadata: CommandMetadata): SettingEvent[] {
  if (!isAdminRole(metadata.actorRole) && metadata.actorRole !== 'system')
    throw new DomainError('forbidden', 'INSUFFICIENT_PERMISSIONS', SETTINGS_MESSAGES.onlyAdmins);
  switch (command.type) {
    case 'ChangeSupportContact': {
      const value = { phone: command.phone.trim(), email: command.email.trim(), hours: command.hours.trim() };
      if (!value.phone) throw invalid(SETTINGS_MESSAGES.phoneRequired, 'phone');
      if (!/^\+?[\d\s()-]{5,40}$/.test(value.phone)) throw invalid(SETTINGS_MESSAGES.phoneInvalid, 'phone');
      if (!value.email) throw invalid(SETTINGS_MESSAGES.emailRequired, 'email');
      if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value.email)) throw invalid(SETTINGS_MESSAGES.emailInvalid, 'email');
      if (!value.hours) throw invalid(SETTINGS_MESSAGES.hoursRequired, 'hours');
      if (state.status === 'set' && JSON.stringify(state.value) === JSON.stringify(value)) return [];
      return [{ type: 'SupportContactChanged.v1', data: value }];
    }
    case 'ChangeNotificationSettings': {
      const mail: Record<string, MailAudience[]> = {};
      for (const [kind, audiences] of Object.entries(command.mail).sort(([a], [b]) => a.localeCompare(b))) {
        if (!isNotificationKind(kind)) throw invalid(SETTINGS_MESSAGES.unknownEvent, `mail.${kind}`);
        if (audiences.some((audience) => !(MAIL_AUDIENCES as readonly string[]).includes(audience)))
          throw invalid(SETTINGS_MESSAGES.unknownAudience, `mail.${kind}`);
        // One order for the same choice, so saving it again is recognised as no change.
        mail[kind] = MAIL_AUDIENCES.filter((audience) => audiences.includes(audience));
      }
      if (state.status === 'set' && JSON.stringify(state.value) === JSON.stringify({ mail })) return [];
      return [{ type: 'NotificationSettingsChanged.v1', data: { mail } }];
    }
    case 'ChangeEmailTemplate': {
      if (!isNotificationKind(command.kind)) throw invalid(SETTINGS_MESSAGES.unknownEvent, 'kind');
      const subject = command.subject.trim();
      const body = command.body.replace(/\r\n/g, '\n').trim();
      if (!subject) throw invalid(SETTINGS_MESSAGES.subjectRequired, 'subject');
      if (subject.length > 200) throw invalid(SETTINGS_MESSAGES.subjectTooLong, 'subject');
      if (!body) throw invalid(SETTINGS_MESSAGES.bodyRequired, 'body');
      if (body.length > 5000) throw invalid(SETTINGS_MESSAGES.bodyTooLong, 'body');
      for (const [field, text] of [
        ['subject', subject],
        ['body', body],
      ] as const) {
        const unknown = unknownPlaceholders(text);
        if (unknown.length) throw invalid(SETTINGS_MESSAGES.unknownPlaceholder(unknown), field);
      }
      const value = { kind: command.kind, subject, body };
      if (state.status === 'set' && JSON.stringify(state.value) === JSON.stringify(value)) return [];
      return [{ type: 'EmailTemplateChanged.v1', data: value }];
    }
    case 'ResetEmailTemplate':
      if (!isNotificationKind(command.kind)) throw invalid(SETTINGS_MESSAGES.unknownEvent, 'kind');
      if (state.status !== 'set') return [];
      return [{ type: 'EmailTemplateReset.v1', data: { kind: command.kind } }];
    case 'ChangeSecurityPolicy': {
      const value: SecurityPolicy = { mfaRequiredFor: command.mfaRequiredFor, ssoRequiredOrganisations: [...new Set(command.ssoRequiredOrganisations)].sort() };
      const current = state.status === 'set' ? state.value : DEFAULT_SECURITY_POLICY;
      if (JSON.stringify(current) === JSON.stringify(value)) return [];
      return [{ type: 'SecurityPolicyChanged.v1', data: value }];
    }
    default:
      return assertNever(command);
  }
}

export const settings: Decider<SettingState, SettingCommand, SettingEvent> = {
  initialState: () => ({ status: 'none' }),
  evolve: (_state, event) => (event.type === 'EmailTemplateReset.v1' ? { status: 'none' } : { status: 'set', value: event.data }),
  decide,
  streamId: (id) => `settings-${id}`,
};

/** A telephone link: the number without spaces and brackets. */
export const telLink = (phone: string) => `tel:${phone.replace(/[^\d+]/g, '')}`;
