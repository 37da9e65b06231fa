import CloseIcon from '@mui/icons-material/Close';
import { Box, Drawer, IconButton, Typography } from '@mui/material';
import { RecordHistory } from './RecordHistory';

/** The History drawer every record list opens: the record's timeline beside the list. `record` null closes it. */
export function HistoryDrawer({ path, record, onClose }: { path: string; record: { id: string; name: string } | null; onClose: () => void }) {
  return (
    <Drawer anchor="right" open={Boolean(record)} onClose={onClose} slotProps={{ paper: { sx: { width: { xs: '100%', sm: 520 } } } }}>
      <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', p: 2, borderBottom: 1, borderColor: 'divider' }}>
        <Box sx={{ minWidth: 0 }}>
          <Typography variant="h6" component="h2">
            History
          </Typography>
          <Typography variant="body2" color="text.secondary" noWrap>
            {record?.name}
          </Typography>
        </Box>
        <IconButton aria-label="Close history" onClick={onClose}>
          <CloseIcon />
        </IconButton>
      </Box>
      <Box sx={{ p: 2 }}>{record ? <RecordHistory path={path} id={record.id} /> : null}</Box>
    </Drawer>
  );
}
