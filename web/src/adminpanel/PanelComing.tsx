import ConstructionIcon from '@mui/icons-material/Construction';
import { Box, Paper, Typography } from '@mui/material';

/** A tab whose screen is still being built, saying so plainly. */
export function PanelComing({ title, text }: { title: string; text: string }) {
  return (
    <>
      <Typography variant="h6" component="h2" sx={{ mb: 2 }}>
        {title}
      </Typography>
      <Paper variant="outlined" sx={{ p: { xs: 2, md: 3 }, display: 'flex', gap: 2, alignItems: 'flex-start' }} data-testid="coming-soon">
        <ConstructionIcon color="action" />
        <Box sx={{ minWidth: 0 }}>
          <Typography variant="subtitle1" component="p" sx={{ fontWeight: 600 }}>
            Coming soon
          </Typography>
          <Typography variant="body2" color="text.secondary">
            {text}
          </Typography>
        </Box>
      </Paper>
    </>
  );
}
