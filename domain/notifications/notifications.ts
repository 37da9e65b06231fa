import { assertNever, DomainError, type Decider } from '../decider';

/** An in-app message to one user. Sent by workers in reaction to events; read by its recipient. */
export type NotificationState = { status: 'none' } | { status: 'unread' | 'read'; id: string; userId: string };

export interface NotificationContent {
  notificationId: string;
  userId: string;
  kind: string;
  title: string;
  body: string;
  link: string | null;
}

export type NotificationEvent =
  { type: 'NotificationSent.v1'; data: NotificationContent } | { type: 'NotificationRead.v1'; data: { notificationId: string; userId: string } };

export type NotificationCommand = ({ type: 'SendNotification' } & NotificationContent) | { type: 'MarkNotificationRead'; userId: string };

export const notifications: Decider<NotificationState, NotificationCommand, NotificationEvent> = {
  initialState: () => ({ status: 'none' }),
  evolve(state, event) {
    switch (event.type) {
      case 'NotificationSent.v1':
        return { status: 'unread', id: event.data.notificationId, userId: event.data.userId };
      case 'NotificationRead.v1':
        return state.status === 'none' ? state : { ...state, status: 'read' };
      default:
        return assertNever(event);
    }
  },
  decide(command, state) {
    switch (command.type) {
      case 'SendNotification': {
        // A job that runs twice sends the same notification id: the second run changes nothing.
        if (state.status !== 'none') return [];
        const { type: _type, ...content } = command;
        return [{ type: 'NotificationSent.v1', data: content }];
      }
      case 'MarkNotificationRead':
        if (state.status === 'none' || state.userId !== command.userId) throw new DomainError('not_found', 'NOT_FOUND', 'Notification not found.');
        if (state.status === 'read') return [];
        return [{ type: 'NotificationRead.v1', data: { notificationId: state.id, userId: state.userId } }];
      default:
        return assertNever(command);
    }
  },
  streamId: (id) => `notifications-${id}`,
};
