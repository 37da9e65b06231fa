import { describe, it } from 'vitest';
import { deciderSpec } from '../deciderSpec';
import { notifications, type NotificationEvent } from './notifications';

const spec = deciderSpec(notifications);
const content = { notificationId: 'n-1', userId: 'u-1', kind: 'account-activated', title: 'Welcome', body: 'Your account is active.', link: '/' };
const sent: NotificationEvent = { type: 'NotificationSent.v1', data: content };
const read: NotificationEvent = { type: 'NotificationRead.v1', data: { notificationId: 'n-1', userId: 'u-1' } };

describe('notifications', () => {
  describe('when none was sent', () => {
    it('sends', () =>
      spec
        .given([])
        .when({ type: 'SendNotification', ...content })
        .then([sent]));
    it('cannot be read', () => spec.given([]).when({ type: 'MarkNotificationRead', userId: 'u-1' }).thenThrows('Notification not found.'));
  });
  describe('when sent', () => {
    it('sending again changes nothing', () =>
      spec
        .given([sent])
        .when({ type: 'SendNotification', ...content })
        .then([]));
    it('its recipient reads it', () => spec.given([sent]).when({ type: 'MarkNotificationRead', userId: 'u-1' }).then([read]));
    it('someone else cannot read it', () =>
      spec.given([sent]).when({ type: 'MarkNotificationRead', userId: 'u-2' }).thenThrows('Notification not found.', 'NOT_FOUND'));
  });
  describe('when read', () => {
    it('reading again changes nothing', () => spec.given([sent, read]).when({ type: 'MarkNotificationRead', userId: 'u-1' }).then([]));
  });
});
