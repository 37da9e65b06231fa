import { lazy } from 'react';
import type { Screen } from '../layout/screens';

const ActivityPage = lazy(() => import('./ActivityPage'));

/** The organisation's activity page. */
export const activityScreens: Screen[] = [{ path: '/activity', element: <ActivityPage />, guard: { title: 'Activity' } }];
