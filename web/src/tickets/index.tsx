import { lazy } from 'react';
import { Navigate } from 'react-router-dom';
import type { Screen } from '../layout/screens';

const SupportCenter = lazy(() => import('./SupportCenter'));
const ComprehensiveSupport = lazy(() => import('./ComprehensiveSupport'));
const Faqs = lazy(() => import('./Faqs'));
const LiveChat = lazy(() => import('./LiveChat'));

/**
 * The Support Center screens. /rma and /warranty-check lead to the Warranty/RMA tab;
 * /learn-earn, /training-videos and /tech-gallery belong to the learning screens.
 */
export const ticketScreens: Screen[] = [
  { path: '/supportcenter', element: <SupportCenter /> },
  { path: '/comprehensive-support', element: <ComprehensiveSupport /> },
  { path: '/faqs', element: <Faqs /> },
  { path: '/live-chat', element: <LiveChat /> },
  { path: '/rma', element: <Navigate to="/supportcenter?tab=warranty" replace /> },
  { path: '/warranty-check', element: <Navigate to="/supportcenter?tab=warranty" replace /> },
];
