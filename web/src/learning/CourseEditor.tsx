import AddIcon from '@mui/icons-material/Add';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import ArrowDownwardIcon from '@mui/icons-material/ArrowDownward';
import ArrowUpwardIcon from '@mui/icons-material/ArrowUpward';
import DeleteIcon from '@mui/icons-material/Delete';
import UploadFileIcon from '@mui/icons-material/UploadFile';
import VisibilityIcon from '@mui/icons-material/Visibility';
import {
  Alert,
  Box,
  Button,
  Checkbox,
  Chip,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  FormControlLabel,
  FormGroup,
  FormLabel,
  IconButton,
  LinearProgress,
  MenuItem,
  Paper,
  Radio,
  Stack,
  Switch,
  Tab,
  Tabs,
  TextField,
  Tooltip,
  Typography,
} from '@mui/material';
import type { CourseBody, LessonInput, QuestionInput } from '@contracts/learning';
import { useEffect, useState } from 'react';
import { Link as RouterLink, useNavigate, useParams } from 'react-router-dom';
import { PageTitle } from '../layout/PageTitle';
import { showToast } from '../layout/toast';
import { Loading } from '../lists';
import { messageOf } from '../providers/errorMapper';
import {
  archiveCourse,
  AUDIENCE_ROLES,
  CATEGORIES,
  createCourse,
  getCourse,
  LEVELS,
  LEVEL_LABELS,
  publishCourse,
  ROLE_LABELS,
  updateCourse,
  uploadMedia,
  type CourseAdminView,
  type LessonMedia,
} from './learningApi';
import { ErrorRetry, LessonMediaView, StatusChip, useLoad } from './LearningParts';
import { Markdown } from './Markdown';

interface LessonDraft {
  key: string;
  id?: string;
  title: string;
  body: string;
  media: LessonMedia | null;
  /** Where the editor previews the media from. */
  url: string | null;
}
interface QuestionDraft {
  key: string;
  id?: string;
  question: string;
  choices: string[];
  correct: number[];
  multiple: boolean;
  explanation: string;
}
interface Draft {
  title: string;
  summary: string;
  audience: string[];
  product_categories: string[];
  level: string;
  estimated_minutes: string;
  certifying: boolean;
  validity_days: string;
  pass_mark: string;
  attempts_allowed: string;
  shuffle_questions: boolean;
  lessons: LessonDraft[];
  quiz: QuestionDraft[];
}

let keys = 0;
const newKey = () => `k${++keys}`;
const emptyLesson = (): LessonDraft => ({ key: newKey(), title: '', body: '', media: null, url: null });
const emptyQuestion = (): QuestionDraft => ({ key: newKey(), question: '', choices: ['', ''], correct: [], multiple: false, explanation: '' });

const NEW_COURSE: Draft = {
  title: '',
  summary: '',
  audience: ['partner', 'partner_user'],
  product_categories: [],
  level: 'beginner',
  estimated_minutes: '30',
  certifying: false,
  validity_days: '730',
  pass_mark: '80',
  attempts_allowed: '3',
  shuffle_questions: false,
  lessons: [],
  quiz: [],
};

function fromCourse(course: CourseAdminView): Draft {
  return {
    title: course.title,
    summary: course.summary,
    audience: [...course.audience],
    product_categories: [...course.product_categories],
    level: course.level,
    estimated_minutes: String(course.estimated_minutes),
    certifying: course.certifying,
    validity_days: course.validity_days === null ? '730' : String(course.validity_days),
    pass_mark: String(course.pass_mark),
    attempts_allowed: course.attempts_allowed === null ? '' : String(course.attempts_allowed),
    shuffle_questions: course.shuffle_questions,
    lessons: course.lessons.map((lesson) => ({
      key: newKey(),
      id: lesson.id,
      title: lesson.title,
      body: lesson.body,
      media: lesson.media,
      url: lesson.media_url,
    })),
    quiz: course.quiz.map((q) => ({
      key: newKey(),
      id: q.id,
      question: q.question,
      choices: [...q.choices],
      correct: [...q.correct],
      multiple: q.kind === 'multiple',
      explanation: q.explanation ?? '',
    })),
  };
}

/** The body the course routes take, or the first thing the form must fix. */
function toBody(draft: Draft): { body: Omit<CourseBody, 'status'> } | { problem: string; tab: number } {
  if (!draft.title.trim()) return { problem: 'Give the course a title.', tab: 0 };
  if (draft.audience.length === 0) return { problem: 'Choose at least one audience role.', tab: 0 };
  const minutes = Number(draft.estimated_minutes);
  if (!Number.isInteger(minutes) || minutes < 1) return { problem: 'Estimated minutes must be a whole number of at least 1.', tab: 0 };
  const passMark = Number(draft.pass_mark);
  if (!Number.isInteger(passMark) || passMark < 0 || passMark > 100) return { problem: 'The pass mark is a percent from 0 to 100.', tab: 2 };
  const validity = Number(draft.validity_days);
  if (draft.certifying && (!Number.isInteger(validity) || validity < 1))
    return { problem: 'A certifying course needs the number of days its certification stays valid.', tab: 0 };
  const attempts = draft.attempts_allowed.trim() === '' ? null : Number(draft.attempts_allowed);
  if (attempts !== null && (!Number.isInteger(attempts) || attempts < 1))
    return { problem: 'Attempts allowed is a whole number of at least 1, or empty for unlimited.', tab: 2 };
  for (const [index, lesson] of draft.lessons.entries()) if (!lesson.title.trim()) return { problem: `Lesson ${index + 1} needs a title.`, tab: 1 };
  for (const [index, question] of draft.quiz.entries()) {
    if (!question.question.trim()) return { problem: `Question ${index + 1} needs its text.`, tab: 2 };
    if (question.choices.some((c) => !c.trim())) return { problem: `Question ${index + 1} has an empty choice.`, tab: 2 };
    if (question.correct.length === 0) return { problem: `Mark the right answer of question ${index + 1}.`, tab: 2 };
  }
  if (draft.certifying && draft.quiz.length === 0) return { problem: 'A certifying course needs a quiz: people are certified by passing it.', tab: 2 };
  const lessons: LessonInput[] = draft.lessons.map((lesson) => ({
    ...(lesson.id ? { id: lesson.id } : {}),
    title: lesson.title.trim(),
    body: lesson.body,
    media: lesson.media,
  }));
  const quiz: QuestionInput[] = draft.quiz.map((q) => ({
    ...(q.id ? { id: q.id } : {}),
    question: q.question.trim(),
    choices: q.choices.map((c) => c.trim()),
    correct: [...q.correct].sort((a, b) => a - b),
    kind: q.multiple ? 'multiple' : 'single',
    ...(q.explanation.trim() ? { explanation: q.explanation.trim() } : {}),
  }));
  return {
    body: {
      title: draft.title.trim(),
      summary: draft.summary.trim(),
      audience: draft.audience as CourseBody['audience'],
      product_categories: draft.product_categories as CourseBody['product_categories'],
      level: draft.level as CourseBody['level'],
      estimated_minutes: minutes,
      certifying: draft.certifying,
      validity_days: draft.certifying ? validity : null,
      pass_mark: passMark,
      attempts_allowed: attempts,
      shuffle_questions: draft.shuffle_questions,
      lessons,
      quiz,
    },
  };
}

/** A creation answered 202 is in the log before the read model shows it: wait (briefly) until it does. */
async function untilReadable(courseId: string) {
  for (let tries = 0; tries < 20; tries++) {
    try {
      await getCourse(courseId);
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
}

/** /learning/admin/courses/new and /learning/admin/courses/:id: details, lessons with media, the quiz builder, draft and publish. */
export default function CourseEditor() {
  const { id } = useParams();
  const creating = !id || id === 'new';
  const navigate = useNavigate();
  const loaded = useLoad(() => (creating ? Promise.resolve(null) : (getCourse(id!) as Promise<CourseAdminView>)), [id]);
  const [draft, setDraft] = useState<Draft | null>(creating ? NEW_COURSE : null);
  const [tab, setTab] = useState(0);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [preview, setPreview] = useState(false);
  const course = loaded.value ?? null;

  useEffect(() => {
    if (creating) setDraft({ ...NEW_COURSE, lessons: [emptyLesson()], quiz: [] });
    else if (loaded.value) setDraft(fromCourse(loaded.value));
  }, [creating, loaded.value]);

  if (loaded.error && !creating) {
    return (
      <Box sx={{ p: { xs: 2, md: 3 } }}>
        <PageTitle title="Course editor" />
        <ErrorRetry error={loaded.error} onRetry={loaded.reload} />
      </Box>
    );
  }
  if (!draft) return <Loading />;
  const set = (patch: Partial<Draft>) => setDraft((current) => (current ? { ...current, ...patch } : current));

  const save = async (publish: boolean) => {
    const built = toBody(draft);
    if ('problem' in built) {
      setProblem(built.problem);
      setTab(built.tab);
      return;
    }
    setProblem(null);
    setBusy(true);
    try {
      if (creating) {
        const answer = (await createCourse({ ...built.body, status: publish ? 'published' : 'draft' })) as { id?: string; data?: { id?: string } };
        const created = answer.data?.id ?? answer.id;
        if (created) await untilReadable(created);
        showToast(publish ? 'Course published' : 'Draft saved', 'success');
        navigate(created ? `/learning/admin/courses/${created}` : '/learning', { replace: true });
      } else {
        await updateCourse(id!, built.body);
        if (publish && course?.status !== 'published') await publishCourse(id!);
        showToast(publish || course?.status === 'published' ? 'Course published' : 'Changes saved', 'success');
        await loaded.reload();
      }
    } catch (caught) {
      setProblem(messageOf(caught, 'The course could not be saved.'));
    } finally {
      setBusy(false);
    }
  };
  const archive = async () => {
    setBusy(true);
    try {
      await archiveCourse(id!);
      showToast('Course archived: it left the catalogue; earned certifications stay', 'success');
      await loaded.reload();
    } catch (caught) {
      setProblem(messageOf(caught, 'The course could not be archived.'));
    } finally {
      setBusy(false);
    }
  };

  const published = course?.status === 'published';
  return (
    <Box sx={{ p: { xs: 2, md: 3 }, minWidth: 0, maxWidth: 1100 }}>
      <Button component={RouterLink} to="/learning" startIcon={<ArrowBackIcon />} size="small" sx={{ mb: 1 }}>
        Learning
      </Button>
      <PageTitle
        title={creating ? 'New course' : `Edit: ${course?.title ?? ''}`}
        subtitle={
          published
            ? `Published, version ${course!.version}. Saving publishes the next version; people who passed earlier versions keep their certifications.`
            : 'A draft is visible to administrators only until it is published.'
        }
      />
      <Stack direction="row" spacing={1} useFlexGap flexWrap="wrap" alignItems="center" sx={{ mb: 2 }}>
        {course ? <StatusChip status={course.status} /> : <StatusChip status="draft" label="New" />}
        {course && course.version > 0 ? <Chip size="small" variant="outlined" label={`version ${course.version}`} /> : null}
        {course && !creating ? (
          <Button size="small" component={RouterLink} to={`/learning/courses/${course.id}`}>
            Open as learners see it
          </Button>
        ) : null}
      </Stack>
      {problem ? (
        <Alert severity="error" sx={{ mb: 2 }} data-testid="editor-problem">
          {problem}
        </Alert>
      ) : null}
      <Tabs
        value={tab}
        onChange={(_, next: number) => setTab(next)}
        variant="scrollable"
        allowScrollButtonsMobile
        sx={{ mb: 2, borderBottom: 1, borderColor: 'divider' }}
      >
        <Tab label="Details" data-testid="editor-tab-details" />
        <Tab label={`Lessons (${draft.lessons.length})`} data-testid="editor-tab-lessons" />
        <Tab label={`Quiz (${draft.quiz.length})`} data-testid="editor-tab-quiz" />
      </Tabs>
      {tab === 0 ? <DetailsForm draft={draft} set={set} /> : null}
      {tab === 1 ? <LessonsForm lessons={draft.lessons} onChange={(lessons) => set({ lessons })} /> : null}
      {tab === 2 ? <QuizForm draft={draft} set={set} onPreview={() => setPreview(true)} /> : null}
      <Paper
        variant="outlined"
        sx={{ p: 1.5, mt: 2, position: 'sticky', bottom: 0, zIndex: 2, display: 'flex', gap: 1, flexWrap: 'wrap', justifyContent: 'flex-end' }}
      >
        {course && course.status !== 'archived' && !creating ? (
          <Button color="inherit" onClick={() => void archive()} disabled={busy} sx={{ mr: 'auto' }}>
            Archive
          </Button>
        ) : null}
        {!published ? (
          <Button variant="outlined" onClick={() => void save(false)} disabled={busy} data-testid="save-draft">
            Save draft
          </Button>
        ) : null}
        <Button variant="contained" onClick={() => void save(true)} disabled={busy} data-testid="publish-course">
          {published ? 'Publish changes' : 'Publish'}
        </Button>
      </Paper>
      {preview ? <QuizPreview quiz={draft.quiz} passMark={draft.pass_mark} onClose={() => setPreview(false)} /> : null}
    </Box>
  );
}

function DetailsForm({ draft, set }: { draft: Draft; set: (patch: Partial<Draft>) => void }) {
  const toggle = (list: string[], value: string, on: boolean) => (on ? [...list, value] : list.filter((v) => v !== value));
  return (
    <Stack spacing={2} data-testid="editor-details">
      <TextField
        label="Title"
        value={draft.title}
        onChange={(e) => set({ title: e.target.value })}
        required
        slotProps={{ htmlInput: { maxLength: 200, 'data-testid': 'course-title' } }}
      />
      <TextField
        label="Summary"
        value={draft.summary}
        onChange={(e) => set({ summary: e.target.value })}
        multiline
        minRows={2}
        slotProps={{ htmlInput: { maxLength: 2000, 'data-testid': 'course-summary' } }}
      />
      <Box>
        <FormLabel component="legend">Audience</FormLabel>
        <FormGroup row>
          {AUDIENCE_ROLES.map((role) => (
            <FormControlLabel
              key={role}
              control={<Checkbox checked={draft.audience.includes(role)} onChange={(e) => set({ audience: toggle(draft.audience, role, e.target.checked) })} />}
              label={ROLE_LABELS[role]}
            />
          ))}
        </FormGroup>
      </Box>
      <TextField
        select
        label="Product categories"
        value={draft.product_categories}
        onChange={(e) => set({ product_categories: typeof e.target.value === 'string' ? e.target.value.split(',') : (e.target.value as string[]) })}
        slotProps={{ select: { multiple: true, renderValue: (selected) => (selected as string[]).join(', ') } }}
      >
        {CATEGORIES.map((category) => (
          <MenuItem key={category} value={category}>
            <Checkbox checked={draft.product_categories.includes(category)} size="small" />
            {category}
          </MenuItem>
        ))}
      </TextField>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
        <TextField select label="Level" value={draft.level} onChange={(e) => set({ level: e.target.value })} sx={{ flex: 1 }}>
          {LEVELS.map((level) => (
            <MenuItem key={level} value={level}>
              {LEVEL_LABELS[level]}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          label="Estimated minutes"
          type="number"
          value={draft.estimated_minutes}
          onChange={(e) => set({ estimated_minutes: e.target.value })}
          sx={{ flex: 1 }}
          slotProps={{ htmlInput: { min: 1, max: 10000 } }}
        />
      </Stack>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} alignItems={{ sm: 'center' }}>
        <FormControlLabel
          control={<Switch checked={draft.certifying} onChange={(e) => set({ certifying: e.target.checked })} data-testid="course-certifying" />}
          label="Passing certifies"
          sx={{ flex: 1 }}
        />
        {draft.certifying ? (
          <TextField
            label="Certification valid for (days)"
            type="number"
            value={draft.validity_days}
            onChange={(e) => set({ validity_days: e.target.value })}
            sx={{ flex: 1 }}
            slotProps={{ htmlInput: { min: 1, max: 3650 } }}
            helperText="730 days is two years."
          />
        ) : null}
      </Stack>
    </Stack>
  );
}

function move<T>(list: T[], from: number, to: number): T[] {
  const next = [...list];
  const [item] = next.splice(from, 1);
  next.splice(to, 0, item!);
  return next;
}

function LessonsForm({ lessons, onChange }: { lessons: LessonDraft[]; onChange: (lessons: LessonDraft[]) => void }) {
  const update = (index: number, patch: Partial<LessonDraft>) => onChange(lessons.map((lesson, i) => (i === index ? { ...lesson, ...patch } : lesson)));
  return (
    <Box data-testid="editor-lessons">
      {lessons.length === 0 ? (
        <Alert severity="info" sx={{ mb: 2 }}>
          No lessons yet: add the first.
        </Alert>
      ) : null}
      {lessons.map((lesson, index) => (
        <Paper key={lesson.key} variant="outlined" sx={{ p: 2, mb: 2 }} data-testid={`lesson-editor-${index}`}>
          <Stack direction="row" alignItems="center" spacing={1} sx={{ mb: 1 }}>
            <Typography variant="subtitle1" sx={{ fontWeight: 600, flex: 1 }}>
              Lesson {index + 1}
            </Typography>
            <Tooltip title="Move up">
              <span>
                <IconButton size="small" aria-label="Move lesson up" disabled={index === 0} onClick={() => onChange(move(lessons, index, index - 1))}>
                  <ArrowUpwardIcon fontSize="small" />
                </IconButton>
              </span>
            </Tooltip>
            <Tooltip title="Move down">
              <span>
                <IconButton
                  size="small"
                  aria-label="Move lesson down"
                  disabled={index === lessons.length - 1}
                  onClick={() => onChange(move(lessons, index, index + 1))}
                >
                  <ArrowDownwardIcon fontSize="small" />
                </IconButton>
              </span>
            </Tooltip>
            <Tooltip title="Remove the lesson">
              <IconButton size="small" aria-label="Remove lesson" onClick={() => onChange(lessons.filter((_, i) => i !== index))}>
                <DeleteIcon fontSize="small" />
              </IconButton>
            </Tooltip>
          </Stack>
          <Stack spacing={2}>
            <TextField
              label="Title"
              value={lesson.title}
              onChange={(e) => update(index, { title: e.target.value })}
              required
              slotProps={{ htmlInput: { maxLength: 200, 'data-testid': 'lesson-title' } }}
            />
            <TextField
              label="Text"
              value={lesson.body}
              onChange={(e) => update(index, { body: e.target.value })}
              multiline
              minRows={4}
              helperText="Markdown: # heading, **bold**, *italics*, - lists, [link](https://…)"
              slotProps={{ htmlInput: { maxLength: 50000, 'data-testid': 'lesson-body' } }}
            />
            <MediaInput lesson={lesson} onChange={(patch) => update(index, patch)} />
          </Stack>
        </Paper>
      ))}
      <Button startIcon={<AddIcon />} variant="outlined" onClick={() => onChange([...lessons, emptyLesson()])} data-testid="add-lesson">
        Add a lesson
      </Button>
    </Box>
  );
}

function MediaInput({ lesson, onChange }: { lesson: LessonDraft; onChange: (patch: Partial<LessonDraft>) => void }) {
  const [chosen, setChosen] = useState<string>(lesson.media?.kind ?? 'none');
  const kind = lesson.media?.kind ?? chosen;
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const upload = async (file: File) => {
    setError(null);
    setProgress(0);
    try {
      const answer = await uploadMedia(file, setProgress);
      onChange({ media: answer.media, url: answer.url });
    } catch (caught) {
      setError(messageOf(caught, 'The file could not be uploaded.'));
    } finally {
      setProgress(null);
    }
  };
  return (
    <Box>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
        <TextField
          select
          label="Media"
          value={kind}
          onChange={(e) => {
            const next = e.target.value;
            setChosen(next);
            onChange(next === 'link' ? { media: { kind: 'link', url: 'https://', type: 'video' }, url: null } : { media: null, url: null });
          }}
          sx={{ minWidth: 180 }}
          slotProps={{ htmlInput: { 'data-testid': 'lesson-media-kind' } }}
        >
          <MenuItem value="none">None</MenuItem>
          <MenuItem value="upload">Upload a file</MenuItem>
          <MenuItem value="link">Link</MenuItem>
          {kind === 'resource' ? <MenuItem value="resource">Downloads library item</MenuItem> : null}
        </TextField>
        {lesson.media?.kind === 'link' ? (
          <>
            <TextField
              label="Address"
              value={lesson.media.url}
              onChange={(e) => onChange({ media: { ...(lesson.media as Extract<LessonMedia, { kind: 'link' }>), url: e.target.value } })}
              sx={{ flex: 1 }}
              slotProps={{ htmlInput: { maxLength: 2000 } }}
            />
            <TextField
              select
              label="Shows"
              value={lesson.media.type ?? 'video'}
              onChange={(e) => onChange({ media: { ...(lesson.media as Extract<LessonMedia, { kind: 'link' }>), type: e.target.value as 'video' } })}
              sx={{ minWidth: 130 }}
            >
              <MenuItem value="video">Video</MenuItem>
              <MenuItem value="pdf">Document</MenuItem>
              <MenuItem value="image">Picture</MenuItem>
            </TextField>
          </>
        ) : null}
      </Stack>
      {lesson.media?.kind === 'upload' ? (
        <Typography variant="body2" sx={{ mt: 1 }}>
          {lesson.media.type === 'video' ? 'Video' : lesson.media.type === 'pdf' ? 'Document' : 'Picture'}: {lesson.media.file_name ?? lesson.media.file}
        </Typography>
      ) : null}
      {kind === 'upload' ? (
        <Box sx={{ mt: 1 }}>
          <Button component="label" size="small" variant="outlined" startIcon={<UploadFileIcon />} disabled={progress !== null}>
            {lesson.media?.kind === 'upload' ? 'Replace the file' : 'Upload a video, PDF or picture'}
            <input
              hidden
              type="file"
              accept="video/*,application/pdf,image/*"
              data-testid="lesson-upload"
              onChange={(e) => {
                const file = e.target.files?.[0];
                e.target.value = '';
                if (file) void upload(file);
              }}
            />
          </Button>
        </Box>
      ) : null}
      {progress !== null ? (
        <Box sx={{ mt: 1 }} data-testid="upload-progress">
          <LinearProgress variant="determinate" value={progress} aria-label="Upload progress" />
          <Typography variant="caption">Uploading… {progress}%</Typography>
        </Box>
      ) : null}
      {error ? (
        <Alert severity="error" sx={{ mt: 1 }}>
          {error}
        </Alert>
      ) : null}
      {lesson.media && lesson.url ? <LessonMediaView media={lesson.media} url={lesson.url} title={lesson.title || 'Lesson media'} /> : null}
    </Box>
  );
}

function QuizForm({ draft, set, onPreview }: { draft: Draft; set: (patch: Partial<Draft>) => void; onPreview: () => void }) {
  const quiz = draft.quiz;
  const update = (index: number, patch: Partial<QuestionDraft>) => set({ quiz: quiz.map((q, i) => (i === index ? { ...q, ...patch } : q)) });
  return (
    <Box data-testid="editor-quiz">
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ mb: 2 }} alignItems={{ sm: 'center' }}>
        <TextField
          label="Pass mark (%)"
          type="number"
          value={draft.pass_mark}
          onChange={(e) => set({ pass_mark: e.target.value })}
          slotProps={{ htmlInput: { min: 0, max: 100, 'data-testid': 'pass-mark' } }}
          sx={{ width: { sm: 150 } }}
        />
        <TextField
          label="Attempts allowed"
          type="number"
          value={draft.attempts_allowed}
          onChange={(e) => set({ attempts_allowed: e.target.value })}
          helperText="Empty: unlimited"
          slotProps={{ htmlInput: { min: 1, max: 100 } }}
          sx={{ width: { sm: 170 } }}
        />
        <FormControlLabel
          control={<Switch checked={draft.shuffle_questions} onChange={(e) => set({ shuffle_questions: e.target.checked })} />}
          label="Shuffle the questions"
        />
        <Button startIcon={<VisibilityIcon />} onClick={onPreview} disabled={quiz.length === 0} sx={{ ml: { sm: 'auto' } }} data-testid="preview-quiz">
          Preview
        </Button>
      </Stack>
      {quiz.length === 0 ? (
        <Alert severity="info" sx={{ mb: 2 }}>
          No quiz. A certifying course needs one; other courses may leave it out.
        </Alert>
      ) : null}
      {quiz.map((question, index) => (
        <Paper key={question.key} variant="outlined" sx={{ p: 2, mb: 2 }} data-testid={`question-editor-${index}`}>
          <Stack direction="row" alignItems="center" spacing={1} sx={{ mb: 1 }}>
            <Typography variant="subtitle1" sx={{ fontWeight: 600, flex: 1 }}>
              Question {index + 1}
            </Typography>
            <IconButton size="small" aria-label="Move question up" disabled={index === 0} onClick={() => set({ quiz: move(quiz, index, index - 1) })}>
              <ArrowUpwardIcon fontSize="small" />
            </IconButton>
            <IconButton
              size="small"
              aria-label="Move question down"
              disabled={index === quiz.length - 1}
              onClick={() => set({ quiz: move(quiz, index, index + 1) })}
            >
              <ArrowDownwardIcon fontSize="small" />
            </IconButton>
            <IconButton size="small" aria-label="Remove question" onClick={() => set({ quiz: quiz.filter((_, i) => i !== index) })}>
              <DeleteIcon fontSize="small" />
            </IconButton>
          </Stack>
          <Stack spacing={1.5}>
            <TextField
              label="Question"
              value={question.question}
              onChange={(e) => update(index, { question: e.target.value })}
              multiline
              required
              slotProps={{ htmlInput: { maxLength: 1000, 'data-testid': 'question-text' } }}
            />
            <FormControlLabel
              control={
                <Switch
                  checked={question.multiple}
                  onChange={(e) => update(index, { multiple: e.target.checked, correct: e.target.checked ? question.correct : question.correct.slice(0, 1) })}
                />
              }
              label="Several answers are right"
            />
            <FormLabel>Choices: tick the right {question.multiple ? 'ones' : 'one'}</FormLabel>
            {question.choices.map((choice, c) => (
              <Stack key={c} direction="row" spacing={1} alignItems="center">
                {question.multiple ? (
                  <Checkbox
                    checked={question.correct.includes(c)}
                    onChange={(e) => update(index, { correct: e.target.checked ? [...question.correct, c] : question.correct.filter((x) => x !== c) })}
                    inputProps={{ 'aria-label': `Choice ${c + 1} is right` }}
                    data-testid={`right-${c}`}
                  />
                ) : (
                  <Radio
                    checked={question.correct[0] === c}
                    onChange={() => update(index, { correct: [c] })}
                    inputProps={{ 'aria-label': `Choice ${c + 1} is right` }}
                    data-testid={`right-${c}`}
                  />
                )}
                <TextField
                  size="small"
                  fullWidth
                  label={`Choice ${c + 1}`}
                  value={choice}
                  onChange={(e) => update(index, { choices: question.choices.map((x, i) => (i === c ? e.target.value : x)) })}
                  slotProps={{ htmlInput: { maxLength: 500, 'data-testid': `choice-text-${c}` } }}
                />
                <IconButton
                  size="small"
                  aria-label={`Remove choice ${c + 1}`}
                  disabled={question.choices.length <= 2}
                  onClick={() =>
                    update(index, {
                      choices: question.choices.filter((_, i) => i !== c),
                      correct: question.correct.filter((x) => x !== c).map((x) => (x > c ? x - 1 : x)),
                    })
                  }
                >
                  <DeleteIcon fontSize="small" />
                </IconButton>
              </Stack>
            ))}
            <Box>
              <Button
                size="small"
                startIcon={<AddIcon />}
                disabled={question.choices.length >= 10}
                onClick={() => update(index, { choices: [...question.choices, ''] })}
                data-testid="add-choice"
              >
                Add a choice
              </Button>
            </Box>
            <TextField
              label="Explanation (shown after submitting)"
              value={question.explanation}
              onChange={(e) => update(index, { explanation: e.target.value })}
              multiline
              slotProps={{ htmlInput: { maxLength: 2000, 'data-testid': 'question-explanation' } }}
            />
          </Stack>
        </Paper>
      ))}
      <Button startIcon={<AddIcon />} variant="outlined" onClick={() => set({ quiz: [...quiz, emptyQuestion()] })} data-testid="add-question">
        Add a question
      </Button>
    </Box>
  );
}

/** The quiz as a learner will see it, with the right answers marked for the author. */
function QuizPreview({ quiz, passMark, onClose }: { quiz: QuestionDraft[]; passMark: string; onClose: () => void }) {
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="md" data-testid="quiz-preview">
      <DialogTitle>Quiz preview</DialogTitle>
      <DialogContent dividers>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
          Pass mark {passMark || '—'}%. Learners see the questions and choices only; the ticks and explanations here are shown to them after they submit.
        </Typography>
        {quiz.map((question, index) => (
          <Box key={question.key} sx={{ mb: 2 }}>
            <Typography sx={{ fontWeight: 600 }}>
              {index + 1}. {question.question || <em>(no question text)</em>}
            </Typography>
            <Typography variant="caption" color="text.secondary">
              {question.multiple ? 'Choose every right answer.' : 'Choose one answer.'}
            </Typography>
            {question.choices.map((choice, c) => (
              <FormControlLabel
                key={c}
                sx={{ display: 'flex' }}
                control={
                  question.multiple ? <Checkbox checked={question.correct.includes(c)} disabled /> : <Radio checked={question.correct.includes(c)} disabled />
                }
                label={choice || <em>(empty choice)</em>}
              />
            ))}
            {question.explanation ? (
              <Box sx={{ pl: 1, borderLeft: 3, borderColor: 'divider' }}>
                <Markdown text={question.explanation} />
              </Box>
            ) : null}
          </Box>
        ))}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Close</Button>
      </DialogActions>
    </Dialog>
  );
}
