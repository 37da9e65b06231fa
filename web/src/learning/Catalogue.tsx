import AccessTimeIcon from '@mui/icons-material/AccessTime';
import WorkspacePremiumIcon from '@mui/icons-material/WorkspacePremium';
import { Box, Card, CardActionArea, CardContent, Chip, LinearProgress, MenuItem, Stack, TextField, Typography } from '@mui/material';
import { useMemo, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { useDebounced } from '../layout/useDebounced';
import { EmptyState, ListToolbar, Loading, type ListSort, type ListSortChoice } from '../lists';
import { AUDIENCE_ROLES, CATEGORIES, LEVELS, LEVEL_LABELS, ROLE_LABELS, formatDay, listCourses, daysUntil, type CourseRow } from './learningApi';
import { ErrorRetry, LevelChip, StatusChip, useLoad } from './LearningParts';

const SORTS: ListSortChoice[] = [
  { field: 'title', label: 'Title (A–Z)', order: 'ASC' },
  { field: 'title', label: 'Title (Z–A)', order: 'DESC' },
  { field: 'level', label: 'Level (beginner first)', order: 'ASC' },
  { field: 'estimated_minutes', label: 'Shortest first', order: 'ASC' },
  { field: 'estimated_minutes', label: 'Longest first', order: 'DESC' },
  { field: 'updated_at', label: 'Recently updated', order: 'DESC' },
];

/**
 * The course catalogue: search, filters (audience role, product category, level; admins also the
 * status), a sort, and course cards that open the course. Learners see their standing on each card.
 */
export function Catalogue({ manage, onCreate }: { manage: boolean; onCreate?: () => void }) {
  const navigate = useNavigate();
  const [search, setSearch] = useState('');
  const [audience, setAudience] = useState('');
  const [category, setCategory] = useState('');
  const [level, setLevel] = useState('');
  const [status, setStatus] = useState('');
  const [sort, setSort] = useState<ListSort>({ field: 'title', order: 'ASC' });
  const q = useDebounced(search.trim(), 300);
  const filter = useMemo(() => ({ q, audience, product_category: category, level, status }), [q, audience, category, level, status]);
  const { value, error, reload } = useLoad(() => listCourses({ filter, sort }), [JSON.stringify(filter), sort.field, sort.order]);
  const activeFilters = [audience, category, level, status].filter(Boolean).length;
  const filtered = activeFilters > 0 || q !== '';
  const clear = () => {
    setSearch('');
    setAudience('');
    setCategory('');
    setLevel('');
    setStatus('');
  };
  const select = (label: string, current: string, set: (value: string) => void, options: Array<[string, string]>, testId: string) => (
    <TextField
      select
      size="small"
      label={label}
      value={current}
      onChange={(event) => set(event.target.value)}
      sx={{ flex: { xs: '1 1 100%', sm: '0 0 190px' } }}
      slotProps={{ htmlInput: { 'data-testid': testId } }}
    >
      <MenuItem value="">All</MenuItem>
      {options.map(([key, text]) => (
        <MenuItem key={key} value={key}>
          {text}
        </MenuItem>
      ))}
    </TextField>
  );

  return (
    <Box data-testid="catalogue">
      <ListToolbar
        search={{ value: search, onChange: setSearch, placeholder: 'Search courses', label: 'Search courses' }}
        filters={
          <>
            {select(
              'Role',
              audience,
              setAudience,
              AUDIENCE_ROLES.map((role) => [role, ROLE_LABELS[role]!]),
              'filter-role',
            )}
            {select(
              'Product category',
              category,
              setCategory,
              CATEGORIES.map((c) => [c, c]),
              'filter-category',
            )}
            {select(
              'Level',
              level,
              setLevel,
              LEVELS.map((l) => [l, LEVEL_LABELS[l]!]),
              'filter-level',
            )}
            {manage
              ? select(
                  'Status',
                  status,
                  setStatus,
                  [
                    ['draft', 'Draft'],
                    ['published', 'Published'],
                    ['archived', 'Archived'],
                  ],
                  'filter-status',
                )
              : null}
          </>
        }
        activeFilters={activeFilters}
        sortChoices={SORTS}
        sortMenuAlways
        sort={sort}
        onSortChange={setSort}
        create={manage && onCreate ? { label: 'New course', onClick: onCreate } : undefined}
      />
      <ErrorRetry error={error} onRetry={reload} />
      {value === undefined && !error ? (
        <Loading />
      ) : value && value.rows.length === 0 ? (
        <EmptyState
          title={filtered ? 'No course matches these filters.' : 'No courses yet.'}
          message={
            filtered
              ? 'Try another word, role, category or level.'
              : manage
                ? 'Create the first course: lessons, a quiz and, if it certifies, how long the certification lasts.'
                : 'Courses appear here as soon as the vendor publishes them.'
          }
          filtered={filtered}
          onClearFilters={clear}
        />
      ) : value ? (
        <>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }} role="status">
            {value.total === 1 ? '1 course' : `${value.total} courses`}
          </Typography>
          <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, minmax(0, 1fr))', lg: 'repeat(3, minmax(0, 1fr))' } }}>
            {value.rows.map((course) => (
              <CourseCard
                key={course.id}
                course={course}
                manage={manage}
                onOpen={() => navigate(manage ? `/learning/admin/courses/${course.id}` : `/learning/courses/${course.id}`)}
              />
            ))}
          </Box>
        </>
      ) : null}
    </Box>
  );
}

function CourseCard({ course, manage, onOpen }: { course: CourseRow; manage: boolean; onOpen: () => void }) {
  const due = course.my_due_date;
  const overdue = due !== null && daysUntil(due) < 0 && course.my_status !== 'passed';
  return (
    <Card
      variant="outlined"
      data-testid={`course-card-${course.id}`}
      sx={{ display: 'flex', flexDirection: 'column', borderColor: overdue ? 'error.main' : undefined }}
    >
      <CardActionArea
        onClick={onOpen}
        sx={{ height: '100%', display: 'flex', flexDirection: 'column', alignItems: 'stretch', justifyContent: 'flex-start' }}
        aria-label={`Open ${course.title}`}
      >
        <CardContent sx={{ flex: 1 }}>
          <Stack direction="row" spacing={1} useFlexGap flexWrap="wrap" sx={{ mb: 1 }}>
            <LevelChip level={course.level} />
            {course.certifying ? <Chip size="small" color="secondary" icon={<WorkspacePremiumIcon />} label="Certifying" /> : null}
            {manage ? <StatusChip status={course.status} /> : null}
            {manage && course.has_draft_changes ? <Chip size="small" color="warning" variant="outlined" label="Unpublished changes" /> : null}
            {!manage && course.my_status ? <StatusChip status={course.my_status} testId="my-status" /> : null}
          </Stack>
          <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600, lineHeight: 1.3 }}>
            {course.title}
          </Typography>
          <Typography
            variant="body2"
            color="text.secondary"
            sx={{ mt: 0.5, display: '-webkit-box', WebkitLineClamp: 3, WebkitBoxOrient: 'vertical', overflow: 'hidden' }}
          >
            {course.summary}
          </Typography>
          <Stack direction="row" spacing={1.5} alignItems="center" sx={{ mt: 1.5, color: 'text.secondary' }}>
            <AccessTimeIcon fontSize="small" />
            <Typography variant="caption">
              {course.estimated_minutes} min · {course.lesson_count === 1 ? '1 lesson' : `${course.lesson_count} lessons`}
              {course.question_count ? ` · quiz of ${course.question_count}` : ''}
            </Typography>
          </Stack>
          {course.product_categories.length ? (
            <Typography variant="caption" color="text.secondary" component="p" sx={{ mt: 0.5 }}>
              {course.product_categories.join(', ')}
            </Typography>
          ) : null}
          {!manage && course.my_progress_percent !== null && course.my_status ? (
            <Box sx={{ mt: 1.5 }}>
              <LinearProgress variant="determinate" value={course.my_progress_percent} aria-label="Progress" />
              <Typography variant="caption" color="text.secondary">
                {course.my_progress_percent}% of the lessons done
              </Typography>
            </Box>
          ) : null}
          {due ? (
            <Typography variant="caption" component="p" sx={{ mt: 0.5, fontWeight: 600, color: overdue ? 'error.main' : 'text.primary' }} data-testid="my-due">
              {overdue ? `Overdue: was due ${formatDay(due)}` : `Assigned to you, due ${formatDay(due)}`}
            </Typography>
          ) : null}
        </CardContent>
      </CardActionArea>
    </Card>
  );
}
