import { hasPermission } from '@domain/access';
import { lazy, type ReactNode } from 'react';
import { Navigate } from 'react-router-dom';
import { useAccess } from '../access/usePrincipal';
import { PageTitle } from '../layout/PageTitle';
import type { Screen } from '../layout/screens';
import { Alert, Box } from '@mui/material';

const LearningPage = lazy(() => import('./LearningPage'));
const CoursePage = lazy(() => import('./CoursePage'));
const QuizPage = lazy(() => import('./QuizPage'));
const AttemptResult = lazy(() => import('./AttemptResult'));
const CertificatePage = lazy(() => import('./CertificatePage'));
const CourseEditor = lazy(() => import('./CourseEditor'));

/** Every learning screen is guarded by the rule of /learning. */
const guard = (title: string) => ({ path: '/learning', title });

/** The course editor is for those who manage courses (Learning.Update); the server refuses everyone else too. */
function ManagersOnly({ children }: { children: ReactNode }) {
  const { principal } = useAccess();
  if (principal && hasPermission(principal, 'Learning.Update')) return <>{children}</>;
  return (
    <Box sx={{ p: { xs: 2, md: 3 } }}>
      <PageTitle title="Course editor" />
      <Alert severity="warning">Only administrators write and publish courses.</Alert>
    </Box>
  );
}

/**
 * The learning screens. Learn & Earn, Training Videos and Tech Gallery (the support resource links)
 * open the one Learning page: its catalogue, and its media view of videos or of every lesson file.
 */
export const learningScreens: Screen[] = [
  { path: '/learning', element: <LearningPage />, guard: guard('Learning') },
  { path: '/learning/courses/:id', element: <CoursePage />, guard: guard('Course') },
  { path: '/learning/courses/:id/quiz', element: <QuizPage />, guard: guard('Quiz') },
  { path: '/learning/courses/:id/attempts/:attemptId', element: <AttemptResult />, guard: guard('Quiz result') },
  { path: '/learning/certifications/:id', element: <CertificatePage />, guard: guard('Certificate') },
  {
    path: '/learning/admin/courses/:id',
    element: (
      <ManagersOnly>
        <CourseEditor />
      </ManagersOnly>
    ),
    guard: guard('Course editor'),
  },
  { path: '/learn-earn', element: <Navigate to="/learning?tab=courses" replace /> },
  { path: '/training-videos', element: <Navigate to="/learning?tab=media&kind=video" replace /> },
  { path: '/tech-gallery', element: <Navigate to="/learning?tab=media" replace /> },
];
