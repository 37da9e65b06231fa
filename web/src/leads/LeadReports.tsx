import { Alert, Box, LinearProgress, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { BarChart } from '@mui/x-charts/BarChart';
import { useEffect, useState } from 'react';
import { ChartCard, chartGrid } from '../dashboards/charts';
import type { LeadReportRow, LeadReports } from '@contracts/leads';
import { leadReports, money, SOURCE_LABELS } from './leadsApi';

const percent = (value: number | null) => (value === null ? '—' : `${value}%`);

/** A rate as a bar beside its number, so the rows compare at a glance. */
function RateBar({ value }: { value: number | null }) {
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, minWidth: 110 }}>
      <LinearProgress variant="determinate" value={value ?? 0} sx={{ flex: 1, height: 8, borderRadius: 4 }} />
      <Typography variant="caption" sx={{ width: 40, textAlign: 'right' }}>
        {percent(value)}
      </Typography>
    </Box>
  );
}

function ReportTable({ title, rows, label }: { title: string; rows: LeadReportRow[]; label: (row: LeadReportRow) => string }) {
  return (
    <Box sx={{ mb: 3 }}>
      <Typography variant="subtitle1" sx={{ mb: 1 }}>
        {title}
      </Typography>
      <Box sx={{ overflowX: 'auto' }}>
        <Table size="small">
          <TableHead>
            <TableRow>
              <TableCell />
              <TableCell align="right">Leads</TableCell>
              <TableCell>Acceptance</TableCell>
              <TableCell align="right">Hours to accept</TableCell>
              <TableCell>Conversion</TableCell>
              <TableCell align="right">Revenue</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {rows.map((row) => (
              <TableRow key={row.key}>
                <TableCell>{label(row)}</TableCell>
                <TableCell align="right">{row.leads}</TableCell>
                <TableCell>
                  <RateBar value={row.acceptance_rate} />
                </TableCell>
                <TableCell align="right">{row.avg_hours_to_accept ?? '—'}</TableCell>
                <TableCell>
                  <RateBar value={row.conversion_rate} />
                </TableCell>
                <TableCell align="right">{money(row.revenue)}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </Box>
    </Box>
  );
}

const CHART_HEIGHT = 260;

/** Acceptance and conversion side by side per row (organisation or source), so the best and the weakest stand out. */
function RatesChart({ title, rows, label }: { title: string; rows: LeadReportRow[]; label: (row: LeadReportRow) => string }) {
  return (
    <ChartCard title={title}>
      <BarChart
        height={CHART_HEIGHT}
        layout="horizontal"
        yAxis={[{ scaleType: 'band', data: rows.map(label), width: 120 }]}
        xAxis={[{ min: 0, max: 100, valueFormatter: (v: number) => `${v}%` }]}
        series={[
          { data: rows.map((r) => r.acceptance_rate ?? 0), label: 'Acceptance', color: '#1565c0', valueFormatter: (v) => percent(v) },
          { data: rows.map((r) => r.conversion_rate ?? 0), label: 'Conversion', color: '#2e7d32', valueFormatter: (v) => percent(v) },
        ]}
        margin={{ left: 0, right: 16 }}
      />
    </ChartCard>
  );
}

/** Revenue from converted leads (delivered orders of their deals) per source. */
function RevenueChart({ rows }: { rows: LeadReportRow[] }) {
  return (
    <ChartCard title="Revenue from converted leads by source">
      <BarChart
        height={CHART_HEIGHT}
        xAxis={[{ scaleType: 'band', data: rows.map((r) => SOURCE_LABELS[r.key] ?? r.key), tickLabelMinGap: 4 }]}
        yAxis={[{ width: 56, valueFormatter: (v: number) => (v >= 1000 ? `$${Math.round(v / 1000)}k` : `$${v}`) }]}
        series={[{ data: rows.map((r) => r.revenue), label: 'Revenue', color: '#6a1b9a', valueFormatter: (v) => money(v ?? 0) }]}
        hideLegend
        margin={{ left: 0, right: 8 }}
      />
    </ChartCard>
  );
}

/** Acceptance, time to accept, conversion and revenue per organisation and per source, and the ageing of open leads. */
export function LeadReportsPanel() {
  const [reports, setReports] = useState<LeadReports | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    leadReports().then(setReports, (caught: Error) => setError(caught.message));
  }, []);
  if (error)
    return (
      <Alert severity="error" sx={{ m: 2 }}>
        {error}
      </Alert>
    );
  if (!reports) return null;
  const oldest = Math.max(1, ...reports.ageing.map((a) => a.unassigned + a.awaiting + a.working));
  if (reports.by_source.length === 0) {
    return (
      <Box sx={{ p: 2 }} data-testid="lead-reports">
        <Alert severity="info">No leads yet: create one or import a CSV file, and the reports fill in as organisations answer them.</Alert>
      </Box>
    );
  }
  return (
    <Box sx={{ p: 2 }} data-testid="lead-reports">
      <Box sx={{ ...chartGrid, mt: 0, mb: 3 }}>
        <RatesChart title="Acceptance and conversion by source" rows={reports.by_source} label={(row) => SOURCE_LABELS[row.key] ?? row.key} />
        <RevenueChart rows={reports.by_source} />
        <RatesChart title="Acceptance and conversion by organisation" rows={reports.by_organisation.slice(0, 10)} label={(row) => row.name} />
      </Box>
      <ReportTable title="By organisation" rows={reports.by_organisation} label={(row) => row.name} />
      <ReportTable title="By source" rows={reports.by_source} label={(row) => SOURCE_LABELS[row.key] ?? row.key} />
      <Typography variant="subtitle1" sx={{ mb: 1 }}>
        Ageing of open leads
      </Typography>
      {reports.ageing.map((a) => (
        <Box key={a.bucket} sx={{ display: 'flex', alignItems: 'center', gap: 1, mb: 1 }}>
          <Typography variant="body2" sx={{ width: 110 }}>
            {a.bucket}
          </Typography>
          <Box sx={{ flex: 1, display: 'flex', height: 14 }}>
            <Box title="unassigned" sx={{ width: `${(a.unassigned / oldest) * 100}%`, bgcolor: 'grey.500' }} />
            <Box title="awaiting an answer" sx={{ width: `${(a.awaiting / oldest) * 100}%`, bgcolor: 'warning.main' }} />
            <Box title="being worked" sx={{ width: `${(a.working / oldest) * 100}%`, bgcolor: 'primary.main' }} />
          </Box>
          <Typography variant="caption" sx={{ width: 190 }}>
            {a.unassigned} unassigned · {a.awaiting} awaiting · {a.working} worked
          </Typography>
        </Box>
      ))}
    </Box>
  );
}
