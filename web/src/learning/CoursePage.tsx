import { hasPermission } from '@domain/access';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import EditIcon from '@mui/icons-material/Edit';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import QuizIcon from '@mui/icons-material/Quiz';
import RadioButtonUncheckedIcon from '@mui/icons-material/RadioButtonUnchecked';
import WorkspacePremiumIcon from '@mui/icons-material/WorkspacePremium';
import {
  Accordion,
  AccordionDetails,
  AccordionSummary,
  Alert,
  Box,
  Button,
  Chip,
  FormControlLabel,
  LinearProgress,
  Paper,
  Stack,
  Switch,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import { useEffect, useState } from 'react';
import { Link as RouterLink, useNavigate, useParams, useSearchParams } from 'react-router-dom';
import { useAccess } from '../access/usePrincipal';
import { formatDateTime } from '../formatting';
import { PageTitle } from '../layout/PageTitle';
import { showToast } from '../layout/toast';
import { Loading } from '../lists';
import { messageOf } from '../providers/errorMapper';
import { enrol, formatDay, getCourse, isLearnerRole, listAttempts, markLesson, ROLE_LABELS, type CourseLearnerView, type CourseView } from './learningApi';
import { ErrorRetry, LessonMediaView, LevelChip, StatusChip, useLoad } from './LearningParts';
import { Markdown } from './Markdown';

const isLearnerView = (course: CourseView): course is CourseLearnerView => course.my !== null || !course.quiz.some((q) => 'correct' in q);

/** /learning/courses/:id: the course's lessons with their media, the learner's progress and the quiz. */
export default function CoursePage() {
  const { id = '' } = useParams();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const { role, principal } = useAccess();
  const learner = isLearnerRole(role);
  const { value: course, error, reload, setValue } = useLoad(() => getCourse(id), [id]);
  const attempts = useLoad(() => (learner ? listAttempts(id).then((a) => a.rows) : Promise.resolve([])), [id, learner, course?.my?.attempts_used]);
  const [busy, setBusy] = useState(false);
  const [open, setOpen] = useState<string | false>(params.get('lesson') ?? false);

  useEffect(() => {
    const lesson = params.get('lesson');
    if (lesson && course) document.getElementById(`lesson-${lesson}`)?.scrollIntoView({ block: 'start' });
  }, [params, course]);

  if (error && !course) {
    return (
      <Box sx={{ p: { xs: 2, md: 3 } }}>
        <PageTitle title="Course" />
        <ErrorRetry error={error} onRetry={reload} />
        <Button component={RouterLink} to="/learning" startIcon={<ArrowBackIcon />}>
          Back to the catalogue
        </Button>
      </Box>
    );
  }
  if (!course) return <Loading />;
  const my = isLearnerView(course) ? course.my : null;
  const done = new Set(my?.completed_lessons ?? []);
  const canEdit = principal !== null && hasPermission(principal, 'Learning.Update');

  const doEnrol = async () => {
    setBusy(true);
    try {
      await enrol(course.id);
      showToast(`You are enrolled in ${course.title}`, 'success');
      await reload();
    } catch (caught) {
      showToast(messageOf(caught, 'Enrolment failed.'), 'error');
    } finally {
      setBusy(false);
    }
  };
  const toggle = async (lessonId: string, next: boolean) => {
    try {
      const answer = await markLesson(course.id, lessonId, next);
      if (isLearnerView(course) && course.my) {
        setValue({
          ...course,
          my: { ...course.my, completed_lessons: answer.data.completed_lessons, progress_percent: answer.data.progress_percent, status: answer.data.status },
        });
      } else await reload();
    } catch (caught) {
      showToast(messageOf(caught, 'The lesson could not be marked.'), 'error');
    }
  };

  const attemptsLeft = my?.attempts_left ?? null;
  const canTakeQuiz = Boolean(my) && course.quiz.length > 0 && attemptsLeft !== 0 && course.status === 'published';

  return (
    <Box sx={{ p: { xs: 2, md: 3 }, minWidth: 0, maxWidth: 1100 }}>
      <Button component={RouterLink} to="/learning" startIcon={<ArrowBackIcon />} size="small" sx={{ mb: 1 }}>
        Catalogue
      </Button>
      <PageTitle title={course.title} subtitle={course.summary} />
      <Stack direction="row" spacing={1} useFlexGap flexWrap="wrap" sx={{ mb: 2 }}>
        <LevelChip level={course.level} />
        <Chip size="small" variant="outlined" label={`${course.estimated_minutes} min`} />
        {course.certifying ? (
          <Chip
            size="small"
            color="secondary"
            icon={<WorkspacePremiumIcon />}
            label={course.validity_days ? `Certifies for ${course.validity_days} days` : 'Certifying'}
          />
        ) : null}
        {course.status !== 'published' ? <StatusChip status={course.status} /> : null}
        {course.product_categories.map((category) => (
          <Chip key={category} size="small" variant="outlined" label={category} />
        ))}
      </Stack>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        For {course.audience.map((r) => ROLE_LABELS[r] ?? r).join(', ')} · version {course.version}
      </Typography>
      {canEdit ? (
        <Button variant="outlined" startIcon={<EditIcon />} onClick={() => navigate(`/learning/admin/courses/${course.id}`)} sx={{ mb: 2 }}>
          Edit course
        </Button>
      ) : null}

      {learner ? (
        <Paper variant="outlined" sx={{ p: 2, mb: 2 }} data-testid="my-standing">
          {my ? (
            <Stack spacing={1}>
              <Stack direction="row" spacing={1} alignItems="center" flexWrap="wrap" useFlexGap>
                <Typography variant="subtitle1" sx={{ fontWeight: 600 }}>
                  Your progress
                </Typography>
                <StatusChip status={my.status} testId="course-status" />
                {my.best_score !== null ? <Chip size="small" variant="outlined" label={`Best score ${my.best_score}%`} /> : null}
              </Stack>
              <LinearProgress variant="determinate" value={my.progress_percent} aria-label="Lessons done" sx={{ height: 8, borderRadius: 1 }} />
              <Typography variant="body2" color="text.secondary" data-testid="progress-text">
                {done.size} of {course.lessons.length} lessons done ({my.progress_percent}%)
              </Typography>
              {my.certification_id ? (
                <Alert
                  severity="success"
                  icon={<WorkspacePremiumIcon />}
                  action={
                    <Button
                      component={RouterLink}
                      to={`/learning/certifications/${my.certification_id}`}
                      color="inherit"
                      size="small"
                      data-testid="open-certificate"
                    >
                      Certificate
                    </Button>
                  }
                >
                  Certified{my.certification_expires_at ? ` until ${formatDay(my.certification_expires_at)}` : ''}.
                </Alert>
              ) : null}
            </Stack>
          ) : (
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} alignItems={{ sm: 'center' }} justifyContent="space-between">
              <Typography variant="body2">Enrol to track your progress through the lessons and take the quiz.</Typography>
              <Button variant="contained" onClick={() => void doEnrol()} disabled={busy || course.status !== 'published'} data-testid="enrol">
                Enrol
              </Button>
            </Stack>
          )}
        </Paper>
      ) : null}

      <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
        Lessons
      </Typography>
      {course.lessons.length === 0 ? (
        <Alert severity="info" sx={{ mb: 2 }}>
          This course has no lessons yet.
        </Alert>
      ) : null}
      <Box sx={{ mb: 3 }} data-testid="lessons">
        {course.lessons.map((lesson, index) => (
          <Accordion
            key={lesson.id}
            id={`lesson-${lesson.id}`}
            expanded={open === lesson.id}
            onChange={(_, expanded) => setOpen(expanded ? lesson.id : false)}
            disableGutters
            variant="outlined"
            data-testid={`lesson-${index}`}
          >
            <AccordionSummary expandIcon={<ExpandMoreIcon />}>
              <Stack direction="row" spacing={1} alignItems="center" sx={{ minWidth: 0 }}>
                {done.has(lesson.id) ? (
                  <CheckCircleIcon color="success" fontSize="small" aria-label="Done" />
                ) : (
                  <RadioButtonUncheckedIcon color="disabled" fontSize="small" aria-label="Not done" />
                )}
                <Typography sx={{ fontWeight: 500, wordBreak: 'break-word' }}>
                  {index + 1}. {lesson.title}
                </Typography>
              </Stack>
            </AccordionSummary>
            <AccordionDetails>
              <Markdown text={lesson.body} />
              <LessonMediaView media={lesson.media} url={lesson.media_url} title={lesson.title} />
              {my ? (
                <FormControlLabel
                  control={
                    <Switch
                      checked={done.has(lesson.id)}
                      onChange={(event) => void toggle(lesson.id, event.target.checked)}
                      inputProps={{ 'aria-label': `Mark ${lesson.title} done` }}
                      data-testid="lesson-done"
                    />
                  }
                  label={done.has(lesson.id) ? 'Done' : 'Mark as done'}
                />
              ) : null}
            </AccordionDetails>
          </Accordion>
        ))}
      </Box>

      {course.quiz.length > 0 ? (
        <Paper variant="outlined" sx={{ p: 2, mb: 2 }} data-testid="quiz-card">
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} justifyContent="space-between" alignItems={{ sm: 'center' }}>
            <Box>
              <Typography variant="h6" component="h2">
                Quiz
              </Typography>
              <Typography variant="body2" color="text.secondary">
                {course.quiz.length === 1 ? '1 question' : `${course.quiz.length} questions`} · pass mark {course.pass_mark}% ·{' '}
                {course.attempts_allowed === null ? 'unlimited attempts' : `${course.attempts_allowed} attempts`}
                {my && attemptsLeft !== null ? ` (${attemptsLeft} left)` : ''}
              </Typography>
            </Box>
            {learner ? (
              <Button
                variant="contained"
                startIcon={<QuizIcon />}
                disabled={!canTakeQuiz}
                onClick={() => navigate(`/learning/courses/${course.id}/quiz`)}
                data-testid="take-quiz"
              >
                {my && my.attempts_used > 0 ? 'Take the quiz again' : 'Take the quiz'}
              </Button>
            ) : null}
          </Stack>
          {learner && !my ? (
            <Typography variant="caption" color="text.secondary">
              Enrol first to take the quiz.
            </Typography>
          ) : null}
          {my && attemptsLeft === 0 && my.status !== 'passed' ? (
            <Alert severity="warning" sx={{ mt: 1 }}>
              You have used every attempt at this version of the course.
            </Alert>
          ) : null}
          {attempts.value && attempts.value.length > 0 ? (
            <Box sx={{ overflowX: 'auto', mt: 2 }}>
              <Table size="small" aria-label="Your attempts">
                <TableHead>
                  <TableRow>
                    <TableCell>Attempt</TableCell>
                    <TableCell sx={{ display: { xs: 'none', sm: 'table-cell' } }}>Submitted</TableCell>
                    <TableCell align="right">Score</TableCell>
                    <TableCell>Result</TableCell>
                  </TableRow>
                </TableHead>
                <TableBody>
                  {attempts.value.map((attempt) => (
                    <TableRow
                      key={attempt.id}
                      hover
                      sx={{ cursor: 'pointer' }}
                      onClick={() => navigate(`/learning/courses/${course.id}/attempts/${attempt.id}`)}
                    >
                      <TableCell>#{attempt.attempt_number}</TableCell>
                      <TableCell sx={{ display: { xs: 'none', sm: 'table-cell' } }}>{formatDateTime(attempt.submitted_at)}</TableCell>
                      <TableCell align="right">{attempt.score}%</TableCell>
                      <TableCell>
                        <StatusChip status={attempt.passed ? 'passed' : 'failed'} />
                      </TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            </Box>
          ) : null}
        </Paper>
      ) : null}
    </Box>
  );
}
