import { lazy } from 'react';
import type { Screen } from '../layout/screens';

const FundsPage = lazy(() => import('./FundsPage'));

/** The market development funds screen. */
export const fundScreens: Screen[] = [{ path: '/funds', element: <FundsPage />, guard: { title: 'Marketing Funds' } }];
