import { lazy } from 'react';
import type { Screen } from '../layout/screens';

const AuditLog = lazy(() => import('./AuditLog'));

/** The admins' audit log. */
export const auditScreens: Screen[] = [{ path: '/audit', element: <AuditLog />, guard: { title: 'Audit Log' } }];
