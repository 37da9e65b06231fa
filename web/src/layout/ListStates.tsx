import { Alert, Box, Button, CircularProgress } from '@mui/material';
import { ApiError } from '../providers/errorMapper';

/** A list that could not load, with Retry; nothing when the session layer already told the user. */
export function LoadError({ error, message, onRetry }: { error: unknown; message: string; onRetry: () => unknown }) {
  if (!error || (error instanceof ApiError && error.handled)) return null;
  return (
    <Alert
      severity="error"
      sx={{ mb: 2 }}
      action={
        <Button color="inherit" size="small" onClick={() => void onRetry()}>
          Retry
        </Button>
      }
    >
      {message}
    </Alert>
  );
}

/** The spinner a list shows while its first page loads. */
export function Loading() {
  return (
    <Box sx={{ display: 'flex', justifyContent: 'center', p: 4 }}>
      <CircularProgress />
    </Box>
  );
}
