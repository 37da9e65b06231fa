import { lazy } from 'react';
import type { Screen } from '../layout/screens';

const PartnerDirectory = lazy(() => import('./PartnerDirectory'));

/** The partner directory; partner approvals are a section of the admin panel. */
export const partnerScreens: Screen[] = [{ path: '/partnerdirectory', element: <PartnerDirectory />, guard: { title: 'Partner Directory' } }];
