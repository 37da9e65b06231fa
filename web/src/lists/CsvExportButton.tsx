import DownloadIcon from '@mui/icons-material/Download';
import { Button } from '@mui/material';
import { useState } from 'react';
import { dataProvider } from '../providers/dataProvider';
import { messageOf } from '../providers/errorMapper';
import { useToast } from '../layout/toast';
import { exportCsv, type CsvExport } from './csvExport';

/** Export: a CSV of every row the list's filters select (not only the page on screen). */
export function CsvExportButton({ config, disabled }: { config: CsvExport; disabled?: boolean }) {
  const toast = useToast();
  const [busy, setBusy] = useState(false);
  const run = async () => {
    setBusy(true);
    try {
      await exportCsv(dataProvider, config);
    } catch (error) {
      toast(messageOf(error, 'The export failed. Please try again.'), 'error');
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button variant="outlined" startIcon={<DownloadIcon />} onClick={() => void run()} disabled={disabled || busy} aria-label="Export CSV">
      {busy ? 'Exporting...' : 'Export'}
    </Button>
  );
}
