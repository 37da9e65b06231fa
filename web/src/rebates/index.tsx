import { lazy } from 'react';
import type { Screen } from '../layout/screens';

const RebatesPage = lazy(() => import('./RebatesPage'));

/** The rebates screen. */
export const rebateScreens: Screen[] = [{ path: '/rebates', element: <RebatesPage />, guard: { title: 'Rebates' } }];
