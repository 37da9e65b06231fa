import DescriptionIcon from '@mui/icons-material/Description';
import ImageIcon from '@mui/icons-material/Image';
import LinkIcon from '@mui/icons-material/Link';
import OndemandVideoIcon from '@mui/icons-material/OndemandVideo';
import { alpha, Alert, Box, Button, Chip, CircularProgress, Typography, type ChipProps, type Theme } from '@mui/material';
import { useCallback, useEffect, useRef, useState, type ReactElement } from 'react';
import { API_URL } from '../providers/httpClient';
import { messageOf } from '../providers/errorMapper';
import { LEVEL_LABELS, STATUS_LABELS, mediaSource, mediaType, type LessonMedia } from './learningApi';

/** A screen's data: loading (undefined), the value, or the error, with a way to load again. */
export function useLoad<T>(load: () => Promise<T>, deps: unknown[]) {
  const [value, setValue] = useState<T | undefined>(undefined);
  const [error, setError] = useState<string | null>(null);
  const latest = useRef(0);
  // The caller names what the load reads, as it would for useEffect: the load is a new function on every render.
  const run = useCallback(load, deps);
  const reload = useCallback(async () => {
    const call = ++latest.current;
    try {
      const answer = await run();
      if (call === latest.current) {
        setValue(answer);
        setError(null);
      }
    } catch (caught) {
      if (call === latest.current) setError(messageOf(caught, 'The learning data could not be loaded.'));
    }
  }, [run]);
  useEffect(() => {
    void reload();
  }, [reload]);
  return { value, error, reload, setValue };
}

/** A load that failed, with Retry. */
export function ErrorRetry({ error, onRetry }: { error: string | null; onRetry: () => unknown }) {
  if (!error) return null;
  return (
    <Alert
      severity="error"
      sx={{ mb: 2 }}
      data-testid="learning-error"
      action={
        <Button color="inherit" size="small" onClick={() => void onRetry()}>
          Retry
        </Button>
      }
    >
      {error}
    </Alert>
  );
}

/** The tint of an overdue assignment's row or cell. */
export const OVERDUE_BG = (theme: Theme) => alpha(theme.palette.error.main, 0.1);

const STATUS_COLOURS: Record<string, ChipProps['color']> = {
  passed: 'success',
  certified: 'success',
  active: 'success',
  published: 'success',
  completed: 'info',
  in_progress: 'info',
  enrolled: 'default',
  not_started: 'default',
  failed: 'error',
  expired: 'error',
  draft: 'warning',
  archived: 'default',
  open: 'info',
  cancelled: 'default',
};

export function StatusChip({ status, label, testId }: { status: string; label?: string; testId?: string }) {
  return (
    <Chip
      size="small"
      color={STATUS_COLOURS[status] ?? 'default'}
      variant={status === 'not_started' ? 'outlined' : 'filled'}
      label={label ?? STATUS_LABELS[status] ?? status}
      data-testid={testId}
    />
  );
}

export const LevelChip = ({ level }: { level: string }) => <Chip size="small" variant="outlined" label={LEVEL_LABELS[level] ?? level} />;

/**
 * A lesson's video, document, picture or link. Uploaded files are fetched with the session and play or
 * show inline; an outside address opens in a new tab, since the portal's content policy loads media
 * only from itself.
 */
export function LessonMediaView({ media, url, title }: { media: LessonMedia | null; url: string | null; title: string }) {
  const type = mediaType(media, url);
  const own = Boolean(url && url.startsWith(`${API_URL}/`));
  const [source, setSource] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (!url || !type || !own) return;
    let revoked: string | null = null;
    let live = true;
    setSource(null);
    setError(null);
    mediaSource(url).then(
      (answer) => {
        if (answer.startsWith('blob:')) revoked = answer;
        if (live) setSource(answer);
        else if (revoked) URL.revokeObjectURL(revoked);
      },
      (caught: Error) => live && setError(caught.message),
    );
    return () => {
      live = false;
      if (revoked) URL.revokeObjectURL(revoked);
    };
  }, [url, type, own]);
  if (!type || !url) return null;
  if (!own) {
    const host = (() => {
      try {
        return new URL(url).host;
      } catch {
        return url;
      }
    })();
    const label = type === 'video' ? 'Watch the video' : type === 'pdf' ? 'Open the document' : type === 'image' ? 'Open the picture' : 'Open the link';
    return (
      <Box sx={{ my: 1.5 }} data-testid="lesson-media">
        <Button variant="outlined" startIcon={ICONS[type]} href={url} target="_blank" rel="noopener noreferrer">
          {label}
        </Button>
        <Typography variant="caption" color="text.secondary" component="span" sx={{ ml: 1 }}>
          on {host}
        </Typography>
      </Box>
    );
  }
  if (error)
    return (
      <Alert severity="warning" sx={{ my: 1 }}>
        {error}
      </Alert>
    );
  if (!source)
    return (
      <Box sx={{ py: 2 }}>
        <CircularProgress size={24} />
      </Box>
    );
  const fileName = media?.kind === 'upload' ? (media.file_name ?? title) : title;
  return (
    <Box sx={{ my: 1.5 }} data-testid="lesson-media">
      {type === 'video' ? (
        <Box
          component="video"
          controls
          preload="metadata"
          src={source}
          sx={{ width: '100%', maxHeight: 420, bgcolor: 'common.black', borderRadius: 1 }}
          aria-label={`Video: ${title}`}
        />
      ) : type === 'image' ? (
        <Box component="img" src={source} alt={title} sx={{ maxWidth: '100%', maxHeight: 420, borderRadius: 1, border: 1, borderColor: 'divider' }} />
      ) : (
        <Button variant="outlined" startIcon={ICONS[type]} href={source} download={fileName} target="_blank" rel="noopener">
          {type === 'pdf' ? 'Open the document' : 'Open the link'}
        </Button>
      )}
    </Box>
  );
}

const ICONS: Record<string, ReactElement> = {
  video: <OndemandVideoIcon />,
  pdf: <DescriptionIcon />,
  image: <ImageIcon />,
  link: <LinkIcon />,
};
