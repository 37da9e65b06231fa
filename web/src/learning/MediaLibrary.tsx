import DescriptionIcon from '@mui/icons-material/Description';
import ImageIcon from '@mui/icons-material/Image';
import LinkIcon from '@mui/icons-material/Link';
import OndemandVideoIcon from '@mui/icons-material/OndemandVideo';
import { Box, Card, CardActionArea, CardContent, Chip, Stack, ToggleButton, ToggleButtonGroup, Typography } from '@mui/material';
import type { ReactElement } from 'react';
import { useNavigate } from 'react-router-dom';
import { EmptyState, Loading } from '../lists';
import { getCourse, listCourses, mediaType } from './learningApi';
import { ErrorRetry, useLoad } from './LearningParts';

export type MediaKind = 'all' | 'video' | 'pdf' | 'image' | 'link';

const KINDS: Array<{ key: MediaKind; label: string }> = [
  { key: 'all', label: 'All media' },
  { key: 'video', label: 'Videos' },
  { key: 'pdf', label: 'Documents' },
  { key: 'image', label: 'Pictures' },
  { key: 'link', label: 'Links' },
];

const ICONS: Record<string, ReactElement> = {
  video: <OndemandVideoIcon />,
  pdf: <DescriptionIcon />,
  image: <ImageIcon />,
  link: <LinkIcon />,
};

interface MediaItem {
  courseId: string;
  courseTitle: string;
  lessonId: string;
  lessonTitle: string;
  position: number;
  type: string;
}

/** Every lesson's media across the courses the caller may read: the Training Videos and Tech Gallery of the portal. */
async function loadMedia(): Promise<MediaItem[]> {
  const { rows } = await listCourses({ sort: { field: 'title', order: 'ASC' } });
  const withMedia = rows.filter((course) => course.media_types.length > 0);
  const courses = await Promise.all(withMedia.map((course) => getCourse(course.id)));
  return courses.flatMap((course) =>
    course.lessons.flatMap((lesson) => {
      const type = mediaType(lesson.media, lesson.media_url);
      return type ? [{ courseId: course.id, courseTitle: course.title, lessonId: lesson.id, lessonTitle: lesson.title, position: lesson.position, type }] : [];
    }),
  );
}

export function MediaLibrary({ kind, onKind }: { kind: MediaKind; onKind: (kind: MediaKind) => void }) {
  const navigate = useNavigate();
  const { value, error, reload } = useLoad(loadMedia, []);
  const shown = (value ?? []).filter((item) => kind === 'all' || item.type === kind);
  return (
    <Box data-testid="media-library">
      <ToggleButtonGroup
        exclusive
        size="small"
        value={kind}
        onChange={(_, next: MediaKind | null) => next && onKind(next)}
        aria-label="Media kind"
        sx={{ mb: 2, flexWrap: 'wrap' }}
      >
        {KINDS.map((k) => (
          <ToggleButton key={k.key} value={k.key} data-testid={`media-${k.key}`}>
            {k.label}
          </ToggleButton>
        ))}
      </ToggleButtonGroup>
      <ErrorRetry error={error} onRetry={reload} />
      {value === undefined && !error ? (
        <Loading />
      ) : value && shown.length === 0 ? (
        <EmptyState
          title={
            kind === 'video'
              ? 'No training videos yet.'
              : kind === 'all'
                ? 'No lesson media yet.'
                : `No ${KINDS.find((k) => k.key === kind)!.label.toLowerCase()} yet.`
          }
          message="Videos, documents and pictures appear here as courses that use them are published."
          filtered={kind !== 'all' && (value?.length ?? 0) > 0}
          onClearFilters={() => onKind('all')}
        />
      ) : (
        <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, minmax(0, 1fr))', lg: 'repeat(4, minmax(0, 1fr))' } }}>
          {shown.map((item) => (
            <Card key={`${item.courseId}-${item.lessonId}`} variant="outlined" data-testid="media-item">
              <CardActionArea onClick={() => navigate(`/learning/courses/${item.courseId}?lesson=${item.lessonId}`)} sx={{ height: '100%' }}>
                <CardContent>
                  <Stack direction="row" spacing={1} alignItems="center" sx={{ color: 'primary.main', mb: 1 }}>
                    {ICONS[item.type]}
                    <Chip size="small" variant="outlined" label={KINDS.find((k) => k.key === item.type)?.label.replace(/s$/, '') ?? item.type} />
                  </Stack>
                  <Typography variant="subtitle2" component="h2" sx={{ fontWeight: 600 }}>
                    {item.lessonTitle}
                  </Typography>
                  <Typography variant="caption" color="text.secondary">
                    {item.courseTitle} · lesson {item.position + 1}
                  </Typography>
                </CardContent>
              </CardActionArea>
            </Card>
          ))}
        </Box>
      )}
    </Box>
  );
}
