import { lazy } from 'react';
import type { Screen } from '../layout/screens';

const LeadsPage = lazy(() => import('./LeadsPage'));
const LeadDetail = lazy(() => import('./LeadDetail'));
const LeadManagement = lazy(() => import('./LeadManagement'));

/** The lead screens. */
export const leadScreens: Screen[] = [
  { path: '/leads', element: <LeadsPage />, guard: { title: 'Leads' } },
  { path: '/leads/:id', element: <LeadDetail />, guard: { path: '/leads', title: 'Lead' } },
  { path: '/lead-management', element: <LeadManagement />, guard: { title: 'Lead Management' } },
];
