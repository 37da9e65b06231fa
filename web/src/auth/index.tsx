import { lazy } from 'react';
import type { Screen } from '../layout/screens';

const ChangePassword = lazy(() => import('./ChangePassword'));
const Security = lazy(() => import('./Security'));

/** The signed-in account screens; signing in, signing up and registering are signed-out screens in Root.tsx. */
export const authScreens: Screen[] = [
  { path: '/change-password', element: <ChangePassword /> },
  { path: '/security', element: <Security /> },
];
