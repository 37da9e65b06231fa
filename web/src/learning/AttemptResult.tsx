import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import CancelIcon from '@mui/icons-material/Cancel';
import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import WorkspacePremiumIcon from '@mui/icons-material/WorkspacePremium';
import { Alert, Box, Button, Paper, Stack, Typography } from '@mui/material';
import { Link as RouterLink, useLocation, useParams } from 'react-router-dom';
import { formatDateTime } from '../formatting';
import { PageTitle } from '../layout/PageTitle';
import { Loading } from '../lists';
import { getCourse, listAttempts, type AttemptRow } from './learningApi';
import { ErrorRetry, useLoad } from './LearningParts';

/** /learning/courses/:id/attempts/:attemptId: the score, pass or fail, and each question's explanation. */
export default function AttemptResult() {
  const { id = '', attemptId = '' } = useParams();
  const location = useLocation();
  const given = (location.state as { attempt?: AttemptRow } | null)?.attempt;
  const load = useLoad(async () => {
    const [course, attempt] = await Promise.all([
      getCourse(id),
      given?.id === attemptId ? Promise.resolve(given) : listAttempts(id).then(({ rows }) => rows.find((row) => row.id === attemptId)),
    ]);
    if (!attempt) throw new Error('This attempt was not found among yours.');
    return { course, attempt };
  }, [id, attemptId]);

  if (load.error && !load.value) {
    return (
      <Box sx={{ p: { xs: 2, md: 3 } }}>
        <PageTitle title="Quiz result" />
        <ErrorRetry error={load.error} onRetry={load.reload} />
        <Button component={RouterLink} to={`/learning/courses/${id}`} startIcon={<ArrowBackIcon />}>
          Back to the course
        </Button>
      </Box>
    );
  }
  if (!load.value) return <Loading />;
  const { course, attempt } = load.value;
  const right = attempt.questions.filter((q) => q.right).length;
  const questions = new Map(course.quiz.map((q) => [q.id, q]));
  const canRetry = !attempt.passed && attempt.attempts_left !== 0;

  return (
    <Box sx={{ p: { xs: 2, md: 3 }, minWidth: 0, maxWidth: 900 }}>
      <Button component={RouterLink} to={`/learning/courses/${course.id}`} startIcon={<ArrowBackIcon />} size="small" sx={{ mb: 1 }}>
        Back to the course
      </Button>
      <PageTitle title={`Result: ${course.title}`} subtitle={`Attempt ${attempt.attempt_number}, submitted ${formatDateTime(attempt.submitted_at)}`} />
      <Paper variant="outlined" sx={{ p: 2, mb: 2, borderColor: attempt.passed ? 'success.main' : 'error.main', borderWidth: 2 }} data-testid="attempt-summary">
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} alignItems={{ sm: 'center' }} justifyContent="space-between">
          <Box>
            <Typography variant="h3" component="p" sx={{ fontWeight: 700, color: attempt.passed ? 'success.main' : 'error.main' }} data-testid="attempt-score">
              {attempt.score}%
            </Typography>
            <Typography variant="h6" component="p" data-testid="attempt-outcome">
              {attempt.passed ? 'Passed' : 'Not passed'}
            </Typography>
            <Typography variant="body2" color="text.secondary">
              {right} of {attempt.questions.length} right · pass mark {attempt.pass_mark}%
              {attempt.attempts_left !== null ? ` · ${attempt.attempts_left === 1 ? '1 attempt' : `${attempt.attempts_left} attempts`} left` : ''}
            </Typography>
          </Box>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1}>
            {attempt.certification_id ? (
              <Button
                variant="contained"
                color="secondary"
                startIcon={<WorkspacePremiumIcon />}
                component={RouterLink}
                to={`/learning/certifications/${attempt.certification_id}`}
                data-testid="result-certificate"
              >
                View your certificate
              </Button>
            ) : null}
            {canRetry ? (
              <Button variant="outlined" component={RouterLink} to={`/learning/courses/${course.id}/quiz`}>
                Try again
              </Button>
            ) : null}
          </Stack>
        </Stack>
      </Paper>
      {!attempt.passed && attempt.attempts_left === 0 ? (
        <Alert severity="warning" sx={{ mb: 2 }}>
          You have used every attempt at this version of the course.
        </Alert>
      ) : null}
      <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
        Your answers
      </Typography>
      {attempt.questions.map((result) => {
        const question = questions.get(result.question_id);
        const chosen = result.chosen.map((c) => question?.choices[c] ?? `Choice ${c + 1}`);
        return (
          <Paper key={result.question_id} variant="outlined" sx={{ p: 2, mb: 1.5 }} data-testid={`result-${result.position}`}>
            <Stack direction="row" spacing={1} alignItems="flex-start">
              {result.right ? <CheckCircleIcon color="success" aria-label="Right" /> : <CancelIcon color="error" aria-label="Wrong" />}
              <Box sx={{ minWidth: 0 }}>
                <Typography sx={{ fontWeight: 600 }}>{question?.question ?? `Question ${result.position + 1}`}</Typography>
                <Typography variant="body2" color="text.secondary">
                  Your answer: {chosen.length ? chosen.join('; ') : 'none'} — {result.right ? 'right' : 'wrong'}
                </Typography>
                {result.explanation ? (
                  <Typography variant="body2" sx={{ mt: 1 }} data-testid="explanation">
                    {result.explanation}
                  </Typography>
                ) : null}
              </Box>
            </Stack>
          </Paper>
        );
      })}
    </Box>
  );
}
