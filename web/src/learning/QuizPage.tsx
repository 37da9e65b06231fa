import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import {
  Alert,
  Box,
  Button,
  Checkbox,
  FormControl,
  FormControlLabel,
  FormLabel,
  LinearProgress,
  MobileStepper,
  Paper,
  Radio,
  RadioGroup,
  Stack,
  Typography,
  useMediaQuery,
  type Theme,
} from '@mui/material';
import { useMemo, useState } from 'react';
import { Link as RouterLink, useNavigate, useParams } from 'react-router-dom';
import { PageTitle } from '../layout/PageTitle';
import { showToast } from '../layout/toast';
import { Loading } from '../lists';
import { messageOf } from '../providers/errorMapper';
import { getCourse, submitAttempt, type CourseView } from './learningApi';
import { ErrorRetry, useLoad } from './LearningParts';

type Question = CourseView['quiz'][number];

/** The order questions are shown in: the course's, or shuffled once per visit when the course asks for it. */
function shownOrder(count: number, shuffle: boolean): number[] {
  const order = Array.from({ length: count }, (_, i) => i);
  if (!shuffle) return order;
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  return order;
}

/**
 * /learning/courses/:id/quiz. Phones show one question at a time; wider screens all of them. The
 * browser holds only the questions and choices: the server grades the answers and only then explains.
 */
export default function QuizPage() {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const phone = useMediaQuery<Theme>((theme) => theme.breakpoints.down('sm'));
  const { value: course, error, reload } = useLoad(() => getCourse(id), [id]);
  const order = useMemo(() => (course ? shownOrder(course.quiz.length, course.shuffle_questions) : []), [course]);
  const [answers, setAnswers] = useState<Record<number, number[]>>({});
  const [step, setStep] = useState(0);
  const [busy, setBusy] = useState(false);
  const [warning, setWarning] = useState<string | null>(null);

  if (error && !course) {
    return (
      <Box sx={{ p: { xs: 2, md: 3 } }}>
        <PageTitle title="Quiz" />
        <ErrorRetry error={error} onRetry={reload} />
      </Box>
    );
  }
  if (!course) return <Loading />;
  const my = course.my;
  const back = (
    <Button component={RouterLink} to={`/learning/courses/${course.id}`} startIcon={<ArrowBackIcon />} size="small" sx={{ mb: 1 }}>
      Back to the course
    </Button>
  );
  if (course.quiz.length === 0 || !my || my.attempts_left === 0) {
    return (
      <Box sx={{ p: { xs: 2, md: 3 } }}>
        {back}
        <PageTitle title={`Quiz: ${course.title}`} />
        <Alert severity="info" data-testid="quiz-unavailable">
          {course.quiz.length === 0
            ? 'This course has no quiz.'
            : !my
              ? 'Enrol in the course first; then take the quiz.'
              : 'You have used every attempt at this version of the course.'}
        </Alert>
      </Box>
    );
  }

  const answered = order.filter((index) => (answers[index] ?? []).length > 0).length;
  const choose = (index: number, question: Question, choice: number, checked: boolean) => {
    setWarning(null);
    setAnswers((current) => {
      const before = current[index] ?? [];
      const next =
        question.kind === 'single' ? [choice] : checked ? [...new Set([...before, choice])].sort((a, b) => a - b) : before.filter((c) => c !== choice);
      return { ...current, [index]: next };
    });
  };
  const submit = async () => {
    const missing = order.filter((index) => (answers[index] ?? []).length === 0);
    if (missing.length > 0 && warning === null) {
      setWarning(
        `${missing.length === 1 ? 'One question has' : `${missing.length} questions have`} no answer: an unanswered question counts as wrong. Submit again to hand in as it is.`,
      );
      return;
    }
    setBusy(true);
    try {
      const answer = await submitAttempt(
        course.id,
        course.quiz.map((_, index) => answers[index] ?? []),
      );
      navigate(`/learning/courses/${course.id}/attempts/${answer.data.id}`, { state: { attempt: answer.data } });
    } catch (caught) {
      showToast(messageOf(caught, 'The answers could not be submitted.'), 'error');
      setBusy(false);
    }
  };

  const questionBlock = (index: number, shownAt: number) => {
    const question = course.quiz[index]!;
    const chosen = answers[index] ?? [];
    return (
      <Paper key={question.id} variant="outlined" sx={{ p: 2, mb: 2 }} data-testid={`question-${shownAt}`}>
        <FormControl component="fieldset" sx={{ width: '100%' }}>
          <FormLabel component="legend" sx={{ color: 'text.primary', fontWeight: 600, mb: 1 }}>
            {shownAt + 1}. {question.question}
          </FormLabel>
          <Typography variant="caption" color="text.secondary" sx={{ mb: 1 }}>
            {question.kind === 'multiple' ? 'Choose every right answer.' : 'Choose one answer.'}
          </Typography>
          {question.kind === 'single' ? (
            <RadioGroup value={chosen[0] ?? ''} onChange={(event) => choose(index, question, Number(event.target.value), true)}>
              {question.choices.map((choice, c) => (
                <FormControlLabel key={c} value={c} control={<Radio />} label={choice} data-testid={`choice-${shownAt}-${c}`} />
              ))}
            </RadioGroup>
          ) : (
            <Stack>
              {question.choices.map((choice, c) => (
                <FormControlLabel
                  key={c}
                  control={<Checkbox checked={chosen.includes(c)} onChange={(event) => choose(index, question, c, event.target.checked)} />}
                  label={choice}
                  data-testid={`choice-${shownAt}-${c}`}
                />
              ))}
            </Stack>
          )}
        </FormControl>
      </Paper>
    );
  };

  const submitButton = (
    <Button variant="contained" onClick={() => void submit()} disabled={busy} data-testid="submit-quiz">
      {busy ? 'Submitting…' : 'Submit answers'}
    </Button>
  );

  return (
    <Box sx={{ p: { xs: 2, md: 3 }, minWidth: 0, maxWidth: 900 }}>
      {back}
      <PageTitle
        title={`Quiz: ${course.title}`}
        subtitle={`Pass mark ${course.pass_mark}%. ${my.attempts_left === null ? 'Attempts are unlimited.' : `This is attempt ${my.attempts_used + 1}; ${my.attempts_left - 1} left after it.`}`}
      />
      <Box sx={{ mb: 2 }}>
        <LinearProgress variant="determinate" value={(answered / order.length) * 100} aria-label="Questions answered" />
        <Typography variant="caption" color="text.secondary" role="status">
          {answered} of {order.length} answered
        </Typography>
      </Box>
      {warning ? (
        <Alert severity="warning" sx={{ mb: 2 }} data-testid="quiz-warning">
          {warning}
        </Alert>
      ) : null}
      {phone ? (
        <Box data-testid="quiz-one-at-a-time">
          {questionBlock(order[step]!, step)}
          <MobileStepper
            variant="text"
            steps={order.length}
            position="static"
            activeStep={step}
            sx={{ px: 0, bgcolor: 'transparent' }}
            backButton={
              <Button size="small" onClick={() => setStep((s) => s - 1)} disabled={step === 0} data-testid="quiz-back">
                Back
              </Button>
            }
            nextButton={
              step < order.length - 1 ? (
                <Button size="small" variant="outlined" onClick={() => setStep((s) => s + 1)} data-testid="quiz-next">
                  Next
                </Button>
              ) : (
                submitButton
              )
            }
          />
        </Box>
      ) : (
        <Box data-testid="quiz-all">
          {order.map((index, shownAt) => questionBlock(index, shownAt))}
          {submitButton}
        </Box>
      )}
    </Box>
  );
}
