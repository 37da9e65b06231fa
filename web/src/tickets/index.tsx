import { lazy } from 'react';
import { Navigate, Route } from 'react-router-dom';

const SupportCenter = lazy(() => import('./SupportCenter'));
const ComprehensiveSupport = lazy(() => import('./ComprehensiveSupport'));
const Faqs = lazy(() => import('./Faqs'));
const LiveChat = lazy(() => import('./LiveChat'));
const LearningPage = lazy(() => import('./LearningPages'));

/** The Support Center screens, mounted among the app's custom routes. /rma and /warranty-check lead to the Warranty/RMA tab. */
export const ticketRoutes = [
  <Route key="supportcenter" path="/supportcenter" element={<SupportCenter />} />,
  <Route key="comprehensive-support" path="/comprehensive-support" element={<ComprehensiveSupport />} />,
  <Route key="faqs" path="/faqs" element={<Faqs />} />,
  <Route key="live-chat" path="/live-chat" element={<LiveChat />} />,
  <Route key="rma" path="/rma" element={<Navigate to="/supportcenter?tab=warranty" replace />} />,
  <Route key="warranty-check" path="/warranty-check" element={<Navigate to="/supportcenter?tab=warranty" replace />} />,
  ...['/learn-earn', '/training-videos', '/tech-gallery'].map((path) => <Route key={path} path={path} element={<LearningPage path={path} />} />),
];
