import { hasPermission } from '@domain/access';
import { Box, Tab, Tabs } from '@mui/material';
import { lazy, Suspense } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { useAccess } from '../access/usePrincipal';
import { PageTitle } from '../layout/PageTitle';
import { Loading } from '../lists';
import { Catalogue } from './Catalogue';
import { isLearnerRole, isOwnerRole } from './learningApi';
import { MediaLibrary, type MediaKind } from './MediaLibrary';

const MyLearning = lazy(() => import('./MyLearning'));
const TeamTraining = lazy(() => import('./TeamTraining'));
const CertificationList = lazy(() => import('./CertificationList'));
const LearningReports = lazy(() => import('./LearningReports'));

/**
 * /learning: one page for the catalogue, the lesson media (Training Videos, Tech Gallery), the
 * caller's own learning, an owner's team and, for those who run the programme, every certification
 * and the reports. The tab is in the address (`?tab=`), so each view can be linked to.
 */
export default function LearningPage() {
  const { principal, role } = useAccess();
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const manage = principal !== null && hasPermission(principal, 'Learning.Update');
  const learner = isLearnerRole(role);
  const owner = isOwnerRole(role);
  const tabs = [
    { key: 'courses', label: 'Courses' },
    { key: 'media', label: 'Videos & media' },
    ...(learner ? [{ key: 'my', label: 'My learning' }] : []),
    ...(owner ? [{ key: 'team', label: 'Team training' }] : []),
    ...(!learner || owner ? [{ key: 'certifications', label: 'Certifications' }] : []),
    ...(manage ? [{ key: 'reports', label: 'Reports' }] : []),
  ];
  const asked = params.get('tab');
  const tab = tabs.some((t) => t.key === asked) ? asked! : 'courses';
  const kind = (params.get('kind') ?? 'all') as MediaKind;
  const show = (key: string, extra: Record<string, string> = {}) => setParams({ tab: key, ...extra }, { replace: true });

  return (
    <Box sx={{ p: { xs: 2, md: 3 }, minWidth: 0 }}>
      <PageTitle
        title="Learning"
        subtitle={
          manage
            ? 'Courses, quizzes and certifications of the partner programme: write and publish courses, follow completions and pass rates.'
            : 'Courses and certifications of the partner programme: learn at your own pace, pass the quiz, and certified people count towards your programme tier.'
        }
      />
      <Tabs
        value={tab}
        onChange={(_, key: string) => show(key)}
        variant="scrollable"
        scrollButtons="auto"
        allowScrollButtonsMobile
        aria-label="Learning views"
        sx={{ mb: 2, borderBottom: 1, borderColor: 'divider' }}
      >
        {tabs.map((t) => (
          <Tab key={t.key} value={t.key} label={t.label} data-testid={`tab-${t.key}`} />
        ))}
      </Tabs>
      <Suspense fallback={<Loading />}>
        {tab === 'courses' ? <Catalogue manage={manage} onCreate={() => navigate('/learning/admin/courses/new')} /> : null}
        {tab === 'media' ? <MediaLibrary kind={kind} onKind={(next) => show('media', next === 'all' ? {} : { kind: next })} /> : null}
        {tab === 'my' ? <MyLearning /> : null}
        {tab === 'team' ? <TeamTraining /> : null}
        {tab === 'certifications' ? <CertificationList /> : null}
        {tab === 'reports' ? <LearningReports /> : null}
      </Suspense>
    </Box>
  );
}
