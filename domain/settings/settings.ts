import { isAdminRole } from '../access/roles';
import { assertNever, DomainError, type CommandMetadata, type Decider } from '../decider';

/**
 * Portal settings that administrators change in the admin panel's System Settings. One stream per
 * setting; the support contact (phone, e-mail, hours) is the first, shown in the Support Center.
 */

export interface SupportContact {
  phone: string;
  email: string;
  hours: string;
}

export const SUPPORT_CONTACT_SETTING = 'support-contact';

export const SETTINGS_MESSAGES = {
  onlyAdmins: 'Only administrators can change settings.',
  phoneRequired: 'Phone is required.',
  phoneInvalid: 'Phone may hold digits, spaces, +, -, ( and ) only.',
  emailRequired: 'Email is required.',
  emailInvalid: 'Email is invalid.',
  hoursRequired: 'Hours are required.',
  saved: 'Support contact saved',
} as const;

export type SettingState = { status: 'none' } | { status: 'set'; value: SupportContact };

export type SettingEvent = { type: 'SupportContactChanged.v1'; data: SupportContact };

export type SettingCommand = { type: 'ChangeSupportContact'; phone: string; email: string; hours: string };

const invalid = (message: string, field: string) => new DomainError('invalid', 'VALIDATION_ERROR', message, [{ field, message }]);

export function decide(command: SettingCommand, state: SettingState, metadata: CommandMetadata): SettingEvent[] {
  if (!isAdminRole(metadata.actorRole) && metadata.actorRole !== 'system') throw new DomainError('forbidden', 'INSUFFICIENT_PERMISSIONS', SETTINGS_MESSAGES.onlyAdmins);
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
    default:
      return assertNever(command.type);
  }
}

export const settings: Decider<SettingState, SettingCommand, SettingEvent> = {
  initialState: () => ({ status: 'none' }),
  evolve: (_state, event) => ({ status: 'set', value: event.data }),
  decide,
  streamId: (id) => `settings-${id}`,
};

/** A telephone link: the number without spaces and brackets. */
export const telLink = (phone: string) => `tel:${phone.replace(/[^\d+]/g, '')}`;
