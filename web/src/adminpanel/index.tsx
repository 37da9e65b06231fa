import { lazy } from 'react';
import type { Screen } from '../layout/screens';

const AdminPanel = lazy(() => import('./AdminPanel'));

/** The admin panel; a refused visitor goes back to the home screen instead of reading a refusal. */
export const adminPanelScreens: Screen[] = [{ path: '/adminpanel', element: <AdminPanel />, guard: { title: 'Admin Panel', redirectTo: '/' } }];
