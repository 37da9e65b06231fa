import { lazy } from 'react';
import { Navigate } from 'react-router-dom';
import { usePrincipal } from '../access/usePrincipal';
import type { Screen } from '../layout/screens';

const ProgrammeAdmin = lazy(() => import('./ProgrammeAdmin'));
const ScorecardPage = lazy(() => import('../scorecards/ScorecardPage'));

/** The ranked table is for those who see every organisation; a partner's own scorecard lives on its programme page. */
function ScorecardsHome() {
  const principal = usePrincipal();
  if (!principal) return null;
  if (principal.role === 'distributor' || principal.role === 'distributor_user')
    return <Navigate to="/distributor/partnership-governance?tab=scorecard" replace />;
  if (principal.role === 'partner' || principal.role === 'partner_user') return <Navigate to="/partnership-governance?tab=scorecard" replace />;
  return <Navigate to="/programme" replace />;
}

/** The partner programme screens for admins and manufacturers. */
export const programmeScreens: Screen[] = [
  { path: '/programme', element: <ProgrammeAdmin />, guard: { title: 'Partner Programme' } },
  { path: '/scorecards', element: <ScorecardsHome /> },
  { path: '/scorecards/:organisationId', element: <ScorecardPage />, guard: { path: '/scorecards', title: 'Scorecard' } },
];
