import { describe, expect, it } from 'vitest';
import { deciderSpec } from '../deciderSpec';
import { settings, SETTINGS_MESSAGES, telLink } from './settings';

const spec = deciderSpec(settings);
const contact = { phone: ' +1 (800) 555-0199 ', email: ' support@partnerhub.test ', hours: ' Mon–Fri 8:00–18:00 CET ' };
const changed = { type: 'SupportContactChanged.v1' as const, data: { phone: '+1 (800) 555-0199', email: 'support@partnerhub.test', hours: 'Mon–Fri 8:00–18:00 CET' } };

describe('support contact setting', () => {
  it('an administrator sets the phone, e-mail and hours, trimmed', () => spec.given([]).when({ type: 'ChangeSupportContact', ...contact }).then([changed]));
  it('setting the same values again changes nothing', () => spec.given([changed]).when({ type: 'ChangeSupportContact', ...contact }).then([]));
  it('refuses anyone but administrators', () =>
    spec.given([]).when({ type: 'ChangeSupportContact', ...contact }, { actorRole: 'support' }).thenThrows(SETTINGS_MESSAGES.onlyAdmins, 'INSUFFICIENT_PERMISSIONS'));
  it('refuses a missing or malformed phone or e-mail and missing hours', () => {
    spec.given([]).when({ type: 'ChangeSupportContact', ...contact, phone: ' ' }).thenThrows(SETTINGS_MESSAGES.phoneRequired);
    spec.given([]).when({ type: 'ChangeSupportContact', ...contact, phone: 'call us' }).thenThrows(SETTINGS_MESSAGES.phoneInvalid);
    spec.given([]).when({ type: 'ChangeSupportContact', ...contact, email: 'support@' }).thenThrows(SETTINGS_MESSAGES.emailInvalid);
    spec.given([]).when({ type: 'ChangeSupportContact', ...contact, hours: '' }).thenThrows(SETTINGS_MESSAGES.hoursRequired);
  });
  it('makes a tel: link of the number', () => expect(telLink('+1 (800) 555-0199')).toBe('tel:+18005550199'));
});
