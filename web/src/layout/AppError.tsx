import ErrorOutlineIcon from '@mui/icons-material/ErrorOutline';
import { Box, Button, Typography } from '@mui/material';
import { usePageTitle } from './PageTitle';

export const UNEXPECTED_ERROR_TEXT = 'Unexpected Application Error!';

/** What the error boundary shows when a screen fails to render. */
export function AppError({ error, resetErrorBoundary }: { error?: Error; resetErrorBoundary?: (...args: unknown[]) => void }) {
  usePageTitle('Error');
  return (
    <Box role="alert" sx={{ p: { xs: 2, md: 4 }, maxWidth: 720 }}>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, mb: 1 }}>
        <ErrorOutlineIcon color="error" />
        <Typography variant="h5" component="h1" sx={{ fontWeight: 600 }}>
          {UNEXPECTED_ERROR_TEXT}
        </Typography>
      </Box>
      {error?.message ? (
        <Typography component="pre" variant="body2" sx={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word', color: 'text.secondary', fontStyle: 'italic' }}>
          {error.message}
        </Typography>
      ) : null}
      <Box sx={{ display: 'flex', gap: 1, mt: 2, flexWrap: 'wrap' }}>
        {resetErrorBoundary ? (
          <Button variant="contained" onClick={() => resetErrorBoundary()}>
            Try again
          </Button>
        ) : null}
        <Button variant="outlined" href="/">
          Go to the home page
        </Button>
      </Box>
    </Box>
  );
}
